import Foundation
import Testing

/// How a test asks curl for an HTTP version: the flag, and what the lab must report for it.
enum HTTPFlavour: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case http1 = "--http1.1"
    case http2 = "--http2"

    var testDescription: String { self == .http1 ? "HTTP/1.1" : "HTTP/2" }
    /// What curl's `%{http_version}` and `/echo`'s `http_version` say.
    var version: String { self == .http1 ? "1.1" : "2" }
    /// How curl's dump starts the status line.
    var statusPrefix: String { self == .http1 ? "HTTP/1.1 " : "HTTP/2 " }
}

/// A temporary file of `count` bytes that do not repeat on any short period, and its SHA-256 (by sha256sum).
///
/// Built from one 4093-byte block (a prime, so no power-of-two boundary lines up with it) written over and
/// over: debug builds are slow to compute megabytes byte by byte.
func bodyFile(bytes count: Int) async throws -> (url: URL, sha256: String) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lab-body-\(UUID().uuidString)")
    let block = Data((0..<4093).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    var data = Data(capacity: count)
    while data.count < count { data.append(block.prefix(count - data.count)) }
    try data.write(to: url)
    let digest = try await Command.run("sha256sum", [url.path]).text.prefix(64)
    return (url, String(digest))
}
