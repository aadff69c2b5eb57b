import RunnerPlan

/// DNS-over-HTTPS JSON: `?name=HOST&type=A|AAAA`, one record type per query, so two queries
/// (A then AAAA) under `ip_version: any`.
struct DoHJSONFormat: HTTPDNSWireFormat {
    func queries(template: String, host: String, ipVersion: IPVersionPreference) -> [HTTPDNSQuery] {
        let a = HTTPDNSQueryURL.FamilyParameter(name: "type", value: "A", family: .v4)
        let aaaa = HTTPDNSQueryURL.FamilyParameter(name: "type", value: "AAAA", family: .v6)
        let parameters: [HTTPDNSQueryURL.FamilyParameter?] = switch ipVersion {
        case .v4: [a]
        case .v6: [aaaa]
        case .any: [a, aaaa]
        }
        return HTTPDNSQueryURL.queries(template: template, host: host, parameters: parameters)
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        try DoHJSONAnswerParser.parse(host: host, status: reply.status, body: reply.body)
    }
}
