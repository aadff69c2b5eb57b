import Testing

@testable import RunnerTransport
import RunnerVocabulary

@Suite("Final-response headers from raw header lines", .timeLimit(.minutes(3)))
struct ResponseHeadTests {
    private func head(_ lines: [String]) -> ResponseHead {
        var head = ResponseHead()
        for line in lines { head.consume(line: line) }
        return head
    }

    @Test("status and headers, names as sent, values trimmed, in order")
    func simple() {
        let result = head(["HTTP/1.1 200 OK\r\n", "Content-Type:  application/json \r\n", "X-Multi: a\r\n", "x-multi: b\r\n", "\r\n"])
        #expect(result.status == 200)
        #expect(result.headers.map(\.name) == ["Content-Type", "X-Multi", "x-multi"])
        #expect(result.headers.map(\.value) == ["application/json", "a", "b"])
        #expect(result.isComplete)
    }

    @Test("name and value are trimmed of spaces and tabs on both sides, whatever their mix; the first colon splits")
    func trimming() {
        let result = head([
            "HTTP/1.1 200 OK\r\n", "X-A \t: \t a b \t \r\n", "X-B:\r\n", "X-C: \t \t\r\n", "X-D:a:b: c\r\n",
            "X-E:\tv\r\n", "X-F :v \r\n", "\r\n",
        ])
        #expect(result.headers.map(\.name) == ["X-A", "X-B", "X-C", "X-D", "X-E", "X-F"])
        #expect(result.headers.map(\.value) == ["a b", "", "", "a:b: c", "v", "v"])
    }

    @Test("interim 1xx blocks do not leak into the final headers")
    func interim() {
        let result = head([
            "HTTP/1.1 100 Continue\r\n", "\r\n",
            "HTTP/1.1 103 Early Hints\r\n", "Link: </a.css>; rel=preload\r\n", "\r\n",
            "HTTP/1.1 201 Created\r\n", "Location: /x\r\n", "\r\n",
        ])
        #expect(result.status == 201)
        #expect(result.headers.count == 1)
        #expect(result.headers.first?.name == "Location")
    }

    @Test("HTTP/2 status lines (no reason phrase)")
    func http2() {
        let result = head(["HTTP/2 204 \r\n", "server: nginx\r\n", "\r\n"])
        #expect(result.status == 204)
        #expect(result.headers.first?.value == "nginx")
    }

    @Test("trailers after the body are not response headers: they are kept apart, as gRPC's status is")
    func trailers() {
        let result = head(["HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "X-Checksum: abc\r\n", "\r\n"])
        #expect(result.headers.map(\.name) == ["Transfer-Encoding"])
        #expect(result.trailers.map { "\($0.name): \($0.value)" } == ["X-Checksum: abc"])
        let grpc = head(["HTTP/2 200\r\n", "content-type: application/grpc\r\n", "\r\n", "grpc-status: 5\r\n", "grpc-message: gone\r\n"])
        #expect(grpc.trailers.map(\.name) == ["grpc-status", "grpc-message"])
        let again = head(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n"])
        #expect(again.trailers.isEmpty, "a 1xx block's end is no body's")
    }

    @Test("obsolete line folding continues the previous value; junk lines are skipped")
    func folding() {
        let result = head(["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "\t second\r\n", "no colon here\r\n", ": empty name\r\n", "Empty:\r\n", "\r\n"])
        #expect(result.headers.count == 2)
        #expect(result.headers[0].value == "first second")
        #expect(result.headers[1].name == "Empty")
        #expect(result.headers[1].value == "")
    }

    @Test("reset forgets the previous transfer")
    func reset() {
        var result = head(["HTTP/1.1 500 Oops\r\n", "A: b\r\n", "\r\n"])
        result.reset()
        #expect(result.status == 0)
        #expect(result.headers.isEmpty)
        #expect(!result.isComplete)
    }

    @Test("values(of:) is case-insensitive and keeps order")
    func values() {
        let response = TransferResponse(
            status: 200, headers: [Header(name: "Set-Cookie", value: "a=1"), Header(name: "X", value: "y"), Header(name: "set-cookie", value: "b=2")], body: .init(),
            bodyLength: 0, bodySHA256: "")
        #expect(response.values(of: "SET-COOKIE") == ["a=1", "b=2"])
    }
}

@Suite("Header names", .timeLimit(.minutes(3)))
struct HeaderNameTests {
    @Test(arguments: [
        ("Content-Type", "content-type", true), ("SET-COOKIE", "Set-Cookie", true), ("Host", "Host", true),
        ("Host", "Hos", false), ("Hos", "Host", false), ("X-A", "X-B", false), ("", "", true),
        // Only ASCII letters fold: '[' (0x5B) is not '{' (0x7B), and non-ASCII stays exact.
        ("X[", "x{", false), ("Ü", "ü", false),
    ])
    func compareASCIICaseInsensitively(lhs: String, rhs: String, equal: Bool) {
        #expect(HeaderName.equal(lhs, rhs) == equal)
    }
}
