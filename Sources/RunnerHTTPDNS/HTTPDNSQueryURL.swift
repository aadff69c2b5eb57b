import Foundation
import RunnerPlan
import RunnerVocabulary

/// Query URLs from a plan's URL template: the host filled in, a format's parameters added.
package enum HTTPDNSQueryURL {
    /// A parameter a format adds to ask for one family (`type=AAAA`), and the family it asks for.
    struct FamilyParameter {
        var name: String
        var value: String
        var family: IPAddress.Family?
    }

    /// `template` with `{client}` and `{client_subnet}` replaced by a user population's address
    /// and subnet (`120.196.0.0/24`), percent-encoded like the host; before the format fills the
    /// host and `auth` signs or encrypts (DNSPod encrypts `ip` like `dn`, Volcengine signs it).
    package static func fillingClient(_ template: String, address: String, subnet: String) -> String {
        template.replacingOccurrences(of: "{client_subnet}", with: encode(subnet))
            .replacingOccurrences(of: "{client}", with: encode(address))
    }

    /// `template` with `{host}` replaced by the URL-encoded host (RFC 3986 unreserved kept).
    static func filled(_ template: String, host: String) -> String {
        template.replacingOccurrences(of: "{host}", with: encode(host))
    }

    /// One GET query per parameter, in order; nil adds nothing (the service's default). A
    /// template that fixes the parameter itself yields the same URL twice: it is asked once.
    static func queries(template: String, host: String, parameters: [FamilyParameter?]) -> [HTTPDNSQuery] {
        let base = filled(template, host: host)
        var queries: [HTTPDNSQuery] = []
        for parameter in parameters {
            let url = appending(parameter.map { (name: $0.name, value: $0.value) }, to: base)
            if !queries.contains(where: { $0.url == url }) {
                queries.append(HTTPDNSQuery(url: url, family: parameter?.family))
            }
        }
        return queries
    }

    /// `url` with `name=value` added to its query, unless the query already sets `name`.
    static func appending(_ parameter: (name: String, value: String)?, to url: String) -> String {
        guard let parameter else { return url }
        // The fragment, if a template has one, stays last.
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let beforeFragment = url[..<fragmentStart]
        let fragment = url[fragmentStart...]
        let pair = "\(parameter.name)=\(parameter.value)"
        guard let questionMark = beforeFragment.firstIndex(of: "?") else {
            return "\(beforeFragment)?\(pair)\(fragment)"
        }
        let query = beforeFragment[beforeFragment.index(after: questionMark)...]
        let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        if names.contains(where: { $0 == parameter.name }) { return url }
        let separator = query.isEmpty || query.hasSuffix("&") ? "" : "&"
        return "\(beforeFragment)\(separator)\(pair)\(fragment)"
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`),
    /// byte by byte: the runner's one encoder, whose forms the redactor masks.
    static func encode(_ host: String) -> String {
        PercentEncoding.encode(host, keeping: .unreserved)
    }
}
