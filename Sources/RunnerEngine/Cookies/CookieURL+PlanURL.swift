import RunnerPlan

extension CookieURL {
    /// The jar is keyed by the original host, never by the IP a hop connected to.
    init(_ url: PlanURL) {
        self.init(secure: url.scheme == .https, host: url.host, path: Self.path(of: url.pathAndQuery))
    }

    /// The path before the query, "/" when it is empty. A URL as sent is ASCII (its path and
    /// query percent-encoded), where a byte is a character: the `?` is found in one pass over
    /// the bytes, without breaking the text into characters (a flow step's every hop asks).
    private static func path(of pathAndQuery: String) -> String {
        let inBytes = pathAndQuery.utf8.withContiguousStorageIfAvailable { bytes -> ASCIIQuery in
            var query: Int?
            for (offset, byte) in bytes.enumerated() {
                if byte >= 0x80 { return .notASCII }
                if query == nil, byte == UInt8(ascii: "?") { query = offset }
            }
            return .ascii(queryAt: query)
        }
        switch inBytes ?? .notASCII {
        case .ascii(queryAt: nil):
            return pathAndQuery.isEmpty ? "/" : pathAndQuery
        case .ascii(queryAt: let offset?):
            return offset == 0 ? "/" : String(pathAndQuery.utf8.prefix(offset)) ?? "/"
        case .notASCII:
            let path = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
            return path.isEmpty ? "/" : path
        }
    }

    /// What one pass over a path and query's bytes found.
    private enum ASCIIQuery {
        case ascii(queryAt: Int?)
        case notASCII
    }
}
