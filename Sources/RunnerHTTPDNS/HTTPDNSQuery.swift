import Foundation
import RunnerPlan
import RunnerVocabulary

/// One request to an HTTPDNS service, as its format builds it.
package struct HTTPDNSQuery: Sendable, Equatable {
    /// The URL to send: `{host}` filled in and the format's parameters added, not yet signed
    /// or encrypted.
    package var url: String
    package var method: String
    package var headers: [Header]
    package var body: Data?
    /// What error texts and evidence call this query: the URL as the plan wrote it, filled in
    /// (never signed, encrypted or carrying a DNS message), with what it asks when that is
    /// not in the URL (`https://dns.example/dns-query (AAAA, POST)`).
    package var label: String
    /// The address family this query asks for; nil when the service decides (its default, or
    /// both). The DoH reader asks for that record type; the json reader keeps that family.
    package var family: IPAddress.Family?

    package init(
        url: String, method: String = "GET", headers: [Header] = [], body: Data? = nil, label: String? = nil,
        family: IPAddress.Family? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.label = label ?? url
        self.family = family
    }
}

/// What came back to one query over HTTP.
package struct HTTPDNSReply: Sendable, Equatable {
    package var status: Int
    package var headers: [Header]
    package var body: Data

    package init(status: Int, headers: [Header] = [], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive), trimmed.
    package func header(_ name: String) -> String? {
        headers.first { HeaderName.equal($0.name, name) }.map { $0.value.trimmingCharacters(in: .whitespaces) }
    }
}
