import Foundation
import RunnerVocabulary

/// A captured request's URL in the parts a plan writes: scheme and authority as they are, the
/// path and each query pair raw (as the app encoded them), no fragment.
struct CapturedURL: Equatable {
    var scheme: String
    var host: String
    /// `host` as a URL writes it (IPv6 in brackets).
    var authority: String
    var path: String
    /// `name=value` pairs split at `&`, each raw; nil when the URL has no `?`.
    var query: [String]?

    init?(_ text: String) {
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        guard let components = URLComponents(string: withoutFragment),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        self.scheme = scheme
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let bracketed = self.host.contains(":") ? "[\(self.host)]" : self.host
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = components.port, port != defaultPort {
            authority = "\(bracketed):\(port)"
        } else {
            authority = bracketed
        }
        path = Self.encoded(components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
        query = components.percentEncodedQuery.map { query in
            query.split(separator: "&", omittingEmptySubsequences: false).map { Self.encoded(String($0)) }
        }
    }

    /// The URL as compared for repeats and redirect targets.
    var normalized: String {
        "\(scheme)://\(authority)\(path)" + (query.map { "?" + $0.joined(separator: "&") } ?? "")
    }

    /// Method-and-path text for names and notes: never the query (it may carry a secret).
    var pathOnly: String { "\(scheme)://\(authority)\(path)" }

    /// A query pair's name, decoded for reading (`+` is a space in a form).
    static func decodedName(_ pair: String) -> String {
        let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? pair
        return decoded(name)
    }

    static func decoded(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Bytes no plan URL may hold unencoded (spaces, quotes, non-ASCII) percent-encoded; what
    /// the app already encoded stays as it was.
    private static func encoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: .pathAndQuery)
    }
}
