/// A request's head as its bytes come, before NIO's decoder sees them, for what the decoder
/// would hold the connection for: a request line without an HTTP version (HTTP/0.9, which
/// llhttp accepts and then waits on) and a head longer than any scraper sends. A value: fed
/// bytes, it says whether the request may go on.
struct MonitorRequestHeadScan: Equatable {
    /// What the bytes so far say.
    enum Verdict: Equatable {
        case fine
        /// The request line has no `HTTP/x.y`: HTTP/0.9, or not HTTP.
        case noVersion
        /// The head passed `maximumHead` bytes.
        case tooLong
    }

    /// Longest head accepted (Prometheus sends about 300 bytes; curl and browsers a few hundred).
    static let maximumHead = 16 * 1024

    /// Bytes of the head seen.
    private(set) var count = 0
    /// The request line so far; nil once it was complete and checked.
    private var line: [UInt8]? = []

    /// Takes the next bytes of the head (what comes after it as well: one read may hold more).
    mutating func take(_ bytes: some Collection<UInt8>) -> Verdict {
        count += bytes.count
        if var partial = line {
            line = nil  // Not shared while it grows.
            var complete = false
            for byte in bytes {
                guard byte == UInt8(ascii: "\n") else {
                    partial.append(byte)
                    continue
                }
                if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
                // Empty lines before the request line are tolerated (RFC 9112 section 2.2).
                if partial.isEmpty { continue }
                complete = true
                break
            }
            if !complete {
                line = partial
            } else if !Self.hasVersion(partial) {
                return .noVersion
            }
        }
        return count > Self.maximumHead ? .tooLong : .fine
    }

    /// Whether a request line ends with ` HTTP/` and a version (any: which ones are served is
    /// `MonitorRoutes.refusal`'s call, on the decoded head).
    static func hasVersion(_ line: [UInt8]) -> Bool {
        guard let space = line.lastIndex(of: UInt8(ascii: " ")) else { return false }
        return line[(space + 1)...].starts(with: Array("HTTP/".utf8)) && space > 0
    }
}
