import RunnerPlan

/// DNSPod / Tencent D+: `/d?dn=HOST` answered in text; the family by `type=aaaa|addrs`.
struct DNSPodFormat: HTTPDNSWireFormat {
    func queries(template: String, host: String, ipVersion: IPVersionPreference) -> [HTTPDNSQuery] {
        let parameter: HTTPDNSQueryURL.FamilyParameter? = switch ipVersion {
        case .v4: nil
        case .v6: .init(name: "type", value: "aaaa", family: .v6)
        case .any: .init(name: "type", value: "addrs", family: nil)
        }
        return HTTPDNSQueryURL.queries(template: template, host: host, parameters: [parameter])
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        try DNSPodAnswerParser.parse(host: host, status: reply.status, body: reply.body)
    }
}
