import NIOCore
import NIOHTTP1

/// The misbehaving answers of `/hostile/{name}`: what a broken or malicious server does to a client, so the
/// runner can prove it neither hangs nor crashes on any of them.
///
/// They work below the endpoint layer (they write parts of responses, pace them, reset the socket, or send
/// bytes no HTTP encoder would produce), so `HTTPRequestHandler` runs them itself on HTTP/1.x connections;
/// an HTTP/2 stream gets a 501 instead, because its framing cannot carry most of them.
enum HostileBehaviour: String, CaseIterable, Sendable {
    /// Reads the request and never answers; the connection stays open until the client leaves.
    case silent
    /// A 200 head promising 1000 bytes, 10 of them, then nothing.
    case stall
    /// A 200 promising 1000 bytes, sent one byte per second.
    case drip
    /// A 200 head promising 1 MiB, 64 KiB of it, then a TCP reset.
    case reset
    /// A 200 whose header block is 1 MiB, then a short body.
    case hugeHeaders = "huge-headers"
    /// A chunked 200 that never ends, paced (see `HostileResponder.endlessChunkInterval`).
    case endless
    /// A legitimate HTTP/1.0 answer without a length: the body ends when the connection does.
    case http10
    /// A status line whose code is not a number ("2OO"), then close.
    case badStatus = "bad-status"

    /// The path prefix every hostile endpoint lives under.
    static let prefix = "/hostile/"

    /// The behaviour a request path names, `nil` for paths outside `/hostile/` or unknown names.
    init?(path: Substring) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        self.init(rawValue: String(path.dropFirst(Self.prefix.count)))
    }
}

/// The lab's hostile endpoints (see `Lab`), named for banners and tests.
public enum HostileEndpoints {
    /// Their names, as in `/hostile/{name}`: silent, stall, drip, reset, huge-headers, endless, http10,
    /// bad-status.
    public static let names: [String] = HostileBehaviour.allCases.map(\.rawValue)
}
