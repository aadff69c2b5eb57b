import Testing

@testable import RunnerServe

/// `MonitorRequestHeadScan`: request lines without an HTTP version and over-long heads refused, however the bytes are cut.
@Suite struct MonitorRequestHeadScanTests {
    /// Each chunk's verdict, in order.
    private func verdicts(_ text: String, chunkSize: Int) -> [MonitorRequestHeadScan.Verdict] {
        let bytes = Array(text.utf8)
        var scan = MonitorRequestHeadScan()
        return stride(from: 0, to: bytes.count, by: chunkSize).map { start in
            scan.take(bytes[start..<min(start + chunkSize, bytes.count)])
        }
    }

    @Test(arguments: [
        "GET /\r\n", "GET /\n", "GET\r\n", "GET / FOO/1.0\r\n", " HTTP/1.1\r\n", "HTTP/1.1\r\n",
        "\r\nGET /index.html\r\n",
    ])
    func refusesARequestLineWithoutAVersion(line: String) {
        var scan = MonitorRequestHeadScan()
        #expect(scan.take(Array(line.utf8)) == .noVersion)
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\n", "GET / HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\n", "\r\n\r\nGET / HTTP/1.1\r\n",
        // Any version passes here; which are served is decided on the decoded head.
        "GET / HTTP/2.0\r\n", "GET / HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n",
    ])
    func acceptsARequestLineWithAVersion(head: String) {
        var scan = MonitorRequestHeadScan()
        #expect(scan.take(Array(head.utf8)) == .fine)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 16])
    func acceptsAHeadSplitAcrossChunks(chunkSize: Int) {
        let verdicts = verdicts("GET / HTTP/1.1\r\nHost: x\r\n\r\n", chunkSize: chunkSize)
        #expect(verdicts.count > 1)
        #expect(verdicts.allSatisfy { $0 == .fine })
    }

    @Test(arguments: [1, 2, 3, 4])
    func refusesAnHTTP09LineSplitAcrossChunksOnceItEnds(chunkSize: Int) {
        // Only the chunk with the line's end can tell.
        let verdicts = verdicts("GET /\r\n", chunkSize: chunkSize)
        #expect(verdicts.dropLast().allSatisfy { $0 == .fine })
        #expect(verdicts.last == .noVersion)
    }

    @Test func acceptsAHeadOfExactlyTheLimitAndRefusesOneByteMore() {
        var scan = MonitorRequestHeadScan()
        let line = Array("GET / HTTP/1.1\r\n".utf8)
        #expect(scan.take(line) == .fine)
        let padding = Array(repeating: UInt8(ascii: "a"), count: MonitorRequestHeadScan.maximumHead - line.count)
        #expect(scan.take(padding) == .fine)
        #expect(scan.count == MonitorRequestHeadScan.maximumHead)
        #expect(scan.take([UInt8(ascii: "\n")]) == .tooLong)
    }

    @Test func refusesARequestLineThatNeverEnds() {
        var scan = MonitorRequestHeadScan()
        let chunk = Array(repeating: UInt8(ascii: "A"), count: 4096)
        for _ in 0..<4 { #expect(scan.take(chunk) == .fine) }
        #expect(scan.take([UInt8(ascii: "A")]) == .tooLong)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 16, 1000])
    func acceptsPipelinedHeadsCutAnywhere(chunkSize: Int) {
        // Header lines of the second head are not taken for its request line, wherever the cut.
        let verdicts = verdicts(
            "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n\r\nGET / HTTP/1.0\n\n",
            chunkSize: chunkSize)
        #expect(verdicts.allSatisfy { $0 == .fine })
    }

    @Test func aLaterHeadsRefusalIsSaidByTheNextTake() {
        var scan = MonitorRequestHeadScan()
        // This take is about the first request, which may go on; the second is HTTP/0.9.
        #expect(scan.take(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /\r\n".utf8)) == .fine)
        #expect(scan.take(Array("\r\n".utf8)) == .noVersion)
    }

    @Test func aBodyAfterTheHeadIsNotRefusedAsARequestLine() {
        // The decoder answers it 413; a 505 for the body's first line would be the wrong reason.
        var scan = MonitorRequestHeadScan()
        #expect(scan.take(Array("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nkey=1\r\nx".utf8)) == .fine)
    }

    @Test func theLimitIsPerHead() {
        var scan = MonitorRequestHeadScan()
        let line = "GET / HTTP/1.1\r\nX-Pad: "
        let head = line + String(repeating: "a", count: 10_000 - line.utf8.count - 4) + "\r\n\r\n"
        #expect(head.utf8.count == 10_000)
        // Three heads in one read: 30 000 bytes, none of them over 16 KiB.
        #expect(scan.take(Array((head + head + head).utf8)) == .fine)
        #expect(scan.count == 0)
    }

    @Test func hasVersionNeedsAMethodBeforeTheVersion() {
        #expect(MonitorRequestHeadScan.hasVersion(Array("GET / HTTP/1.1".utf8)))
        #expect(MonitorRequestHeadScan.hasVersion(Array("GET HTTP/1.1".utf8)))
        #expect(!MonitorRequestHeadScan.hasVersion(Array(" HTTP/1.1".utf8)))
        #expect(!MonitorRequestHeadScan.hasVersion(Array("GET / http/1.1".utf8)))
        #expect(!MonitorRequestHeadScan.hasVersion([]))
    }
}
