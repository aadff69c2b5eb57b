import Testing
@testable import RunnerCapture

@Suite struct HTTPVersionSeenTests {
    @Test(arguments: [
        ("HTTP/1.1", HTTPVersionSeen.http1_1), ("HTTP/1.0", .http1_0), ("HTTP/2.0", .http2), ("http/2.0", .http2),
        ("HTTP/2", .http2), ("h2", .http2), ("h3", .http3), ("HTTP/3", .http3), ("1.1", .http1_1), ("unknown", .unknown),
        ("http/2.0+quic/46", .http3), ("", .unknown), ("h3-29", .http3), ("SPDY/3", .unknown),
    ])
    func everySpellingTheToolsWrite(text: String, version: HTTPVersionSeen) {
        #expect(HTTPVersionSeen(harText: text) == version)
    }
}
