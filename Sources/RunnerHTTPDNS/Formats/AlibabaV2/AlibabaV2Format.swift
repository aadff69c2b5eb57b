import RunnerPlan

/// Alibaba Cloud EMAS `/v2/d`: the plan's URL names the account (`id=`) and the host
/// (`dn={host}`); this adds the family (`q`), the version (`v=1.0`) and the client asked as
/// (`cip`). The `alibaba-v2` auth scheme then adds `m`, `exp` and `s`, and moves the names into
/// `enc` when it encrypts. One query for either family: `q=4,6` asks both.
struct AlibabaV2Format: HTTPDNSWireFormat {
    /// The population's address (`cip`); nil: as this machine.
    var clientAddress: String?

    func queries(template: String, host: String, ipVersion: IPVersionPreference) -> [HTTPDNSQuery] {
        let (family, value): (IPAddress.Family?, String) = switch ipVersion {
        case .v4: (.v4, "4")
        case .v6: (.v6, "6")
        case .any: (nil, "4,6")
        }
        var query = HTTPDNSQueryParameters(url: HTTPDNSQueryURL.filled(template, host: host))
        if !query.has("q") { query.set("q", to: value) }
        if let clientAddress { query.set("cip", to: clientAddress) }
        if !query.has("v") { query.set("v", to: "1.0") }
        return [HTTPDNSQuery(url: query.url, family: family)]
    }

    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer {
        try AlibabaV2AnswerParser.parse(host: host, family: query.family, status: reply.status, body: reply.body)
    }
}
