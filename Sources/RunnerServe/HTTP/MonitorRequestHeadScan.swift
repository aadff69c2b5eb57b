/// A connection's request heads as their bytes come, before NIO's decoder sees them, for what the
/// decoder would hold the connection for: a request line without an HTTP version (HTTP/0.9, which
/// llhttp accepts and then waits on) and a head longer than any scraper sends. A value fed every
/// byte of the connection in order, so that it knows where each head ends and the next begins
/// (a pipelined request may begin in the read that ends the one before): it says whether the
/// request may go on.
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

    /// Bytes of the head in progress seen.
    private(set) var count = 0
    /// The request line so far; nil once it was complete and checked.
    private var line: [UInt8]? = []
    /// Bytes of the header line in progress (a `\r` aside): none at its end ends the head.
    private var headerLine = 0
    /// A refusal of a head that began after the one the take was about: said by the next take,
    /// once that head is the request in progress (until then it is not this request's answer,
    /// and may be a body the decoder refuses first).
    private var pending: Verdict?

    /// Takes the next bytes: the verdict on the head in progress (or the one they begin).
    mutating func take(_ bytes: some Collection<UInt8>) -> Verdict {
        var verdict = pending ?? .fine
        pending = nil
        var current = true
        for byte in bytes {
            let (refusal, endsHead) = step(byte)
            if let refusal {
                if !current {
                    pending = pending ?? refusal
                } else if verdict == .fine {
                    verdict = refusal
                }
            }
            if endsHead { current = false }
        }
        return verdict
    }

    /// One byte: a refusal of the head it belongs to, and whether it is that head's last.
    private mutating func step(_ byte: UInt8) -> (refusal: Verdict?, endsHead: Bool) {
        count += 1
        let tooLong: Verdict? = count == Self.maximumHead + 1 ? .tooLong : nil
        if line != nil {
            guard byte == UInt8(ascii: "\n") else {
                line?.append(byte)  // In place: no copy is bound while it grows.
                return (tooLong, false)
            }
            var partial = line ?? []
            if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
            // Empty lines before the request line are tolerated (RFC 9112 section 2.2).
            if partial.isEmpty {
                line = []
                return (tooLong, false)
            }
            line = nil
            headerLine = 0
            return (Self.hasVersion(partial) ? tooLong : .noVersion, false)
        }
        guard byte == UInt8(ascii: "\n") else {
            if byte != UInt8(ascii: "\r") { headerLine += 1 }
            return (tooLong, false)
        }
        guard headerLine == 0 else {
            headerLine = 0
            return (tooLong, false)
        }
        // An empty line: the head is complete (a body is refused, so what follows is the next request).
        count = 0
        line = []
        return (tooLong, true)
    }

    /// Whether a request line ends with ` HTTP/` and a version (any: which ones are served is
    /// `MonitorRoutes.refusal`'s call, on the decoded head).
    static func hasVersion(_ line: [UInt8]) -> Bool {
        guard let space = line.lastIndex(of: UInt8(ascii: " ")) else { return false }
        return line[(space + 1)...].starts(with: Array("HTTP/".utf8)) && space > 0
    }
}
