#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunnerVocabulary

/// The status and headers of the final response, built from the raw header lines libcurl
/// hands over one at a time (interim 1xx blocks included, trailers after the body too).
struct ResponseHead {
    /// Status of the latest status line (0 before any).
    private(set) var status = 0
    /// Headers of the latest block, in order, names as sent.
    private(set) var headers: [Header] = []
    /// The blank line ending the latest block has arrived.
    private(set) var isComplete = false
    /// Header lines that came after the final block (HTTP/2 and chunked trailers: gRPC's
    /// `grpc-status` and `grpc-message`), in order.
    private(set) var trailers: [Header] = []

    /// Forgets everything (a new transfer).
    mutating func reset() {
        status = 0
        headers.removeAll(keepingCapacity: true)
        trailers.removeAll(keepingCapacity: true)
        isComplete = false
    }

    /// Takes one raw line, CRLF (or LF) included or not.
    mutating func consume(line raw: UnsafeRawBufferPointer) {
        var line = raw[...]
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            line = line.dropLast()
        }
        if line.starts(with: Self.httpPrefix) {
            // A new status line (after a 1xx, or a retried request): only the final block counts.
            headers.removeAll(keepingCapacity: true)
            trailers.removeAll(keepingCapacity: true)
            isComplete = false
            status = Self.statusCode(of: line)
            return
        }
        if line.isEmpty {
            isComplete = true
            return
        }
        // Lines after the blank line are trailers (sent after the body), kept apart.
        if isComplete {
            if let trailer = Self.header(in: line) { trailers.append(trailer) }
            return
        }
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // obs-fold: continues the previous header's value.
            guard !headers.isEmpty else { return }
            let more = Self.trimmed(line)
            if !more.isEmpty {
                headers[headers.count - 1].value += " " + String(decoding: more, as: UTF8.self)
            }
            return
        }
        if let header = Self.header(in: line) { headers.append(header) }
    }

    /// `Name: value`, both trimmed; nil for a line without a name and a colon.
    private static func header(in line: UnsafeRawBufferPointer.SubSequence) -> Header? {
        guard let colon = colonIndex(in: line) else { return nil }
        let name = trimmed(line[line.startIndex..<colon])
        guard !name.isEmpty else { return nil }
        let value = trimmed(line[(colon + 1)...])
        return Header(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// Where the line's first `:` is (memchr: every header of every response is scanned; a
    /// generic search over the slice cost ~120 instructions a header).
    private static func colonIndex(in line: UnsafeRawBufferPointer.SubSequence) -> Int? {
        guard let base = line.base.baseAddress, !line.isEmpty,
              let found = memchr(base + line.startIndex, Int32(UInt8(ascii: ":")), line.count)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Convenience for text lines (tests, diagnostics).
    mutating func consume(line: String) {
        var copy = line
        copy.withUTF8 { consume(line: UnsafeRawBufferPointer($0)) }
    }

    private static let httpPrefix: [UInt8] = Array("HTTP/".utf8)

    /// `HTTP/1.1 204 No Content` → 204; `HTTP/2 200` → 200; 0 when unreadable.
    private static func statusCode(of line: Slice<UnsafeRawBufferPointer>) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
        var code = 0
        var digits = 0
        for byte in line[(space + 1)...] {
            if byte == UInt8(ascii: " ") && digits == 0 { continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else { break }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits == 3 ? code : 0
    }

    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        // By index: a slice dropped a byte at a time was rebuilt for each one.
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return bytes[start..<end]
    }
}
