import RunnerPlan

/// Alibaba Cloud EMAS: `/d?host=HOST` (or the signed `/sign_d`) answered in JSON; the family
/// by `query=6|4,6`.
struct AlibabaFormat: HTTPDNSWireFormat {
    func queries(template: String, host: String, ipVersion: IPVersionPreference) -> [HTTPDNSQuery] {
        let parameter: HTTPDNSQueryURL.FamilyParameter? = switch ipVersion {
        case .v4: nil
        case .v6: .init(name: "query", value: "6", family: .v6)
        case .any: .init(name: "query", value: "4,6", family: nil)
        }
        return HTTPDNSQueryURL.queries(template: template, host: host, parameters: [parameter])
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        try AlibabaAnswerParser.parse(host: host, status: reply.status, body: reply.body)
    }
}
