import Crypto
import Foundation
import LabTestSupport
import PlanFixtures
import RunnerCapture
import RunnerLab
import Testing

/// A real capture: mitmproxy's mitmdump (PyPI, `make deps`) as the proxy in front of the lab, curl
/// as the app, the HAR mitmdump's `savehar` addon writes read back with `HARCapture.read`.
@Suite(.timeLimit(.minutes(3))) struct MitmproxyHARTests {
    @Test func anAppSessionCapturedByMitmproxyReadsBackAsSent() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let capture = try await MitmproxyCapture.appSession(lab: lab, directory: directory)
        print("mitmproxy capture: \(capture.timings)")
        let sent = capture.result
        let har = try HARCapture.read(try Data(contentsOf: capture.har), path: capture.har.path)
        #expect(har.creator == "mitmproxy")
        #expect(har.version == "1.2")

        // Every request in the order sent, the redirect chain as its three hops; no CONNECT entry.
        let base = "https://\(sent.host):\(sent.httpsPort)"
        let requests = MitmproxyCapture.appSessionRequests.flatMap { request in
            request.path == "/redirect-chain/2"
                ? ["/redirect-chain/2", "/redirect-chain/1", "/redirect-chain/0"].map { "GET \(base)\($0)" }
                : ["\(request.method) \(base)\(request.path)"]
        }
        #expect(har.entries.map { "\($0.request.method) \($0.request.url)" } == requests)
        #expect(har.entries.map { $0.response?.status } == [200, 200, 200, 200, 200, 200, 302, 302, 200, 200, 200])
        for entry in har.entries {
            #expect(entry.serverIPAddress == HARServerAddress(address: LabAddress.primary), "entry \(entry.index)")
            #expect(entry.failure == nil, "entry \(entry.index)")
            #expect(entry.request.httpVersion == .http2, "entry \(entry.index): \(entry.request.httpVersionText ?? "-")")
            #expect(entry.startedDateTime != nil, "entry \(entry.index): \(entry.startedDateTimeText ?? "-")")
        }
        guard har.entries.count == requests.count else { return }
        let entries = har.entries

        // The API key on the first GET only; the repeat is the same request without it.
        #expect(entries[0].request.headers.filter { $0.name == "x-api-key" }.map(\.value) == [sent.apiKey])
        #expect(!entries[1].request.headers.contains { $0.name == "x-api-key" })
        #expect(entries[0].response?.content?.bytes == entries[1].response?.content?.bytes)

        // JSON: the text as sent, its type kept.
        #expect(entries[2].request.body?.bytes == Data(sent.jsonBody.utf8))
        #expect(entries[2].request.body?.mimeType == "application/json")

        // The form: its fields as params, in order (the password among them), and its encoded text.
        let form = try #require(entries[3].request.body)
        #expect(form.mimeType == "application/x-www-form-urlencoded")
        #expect(form.params == sent.formFields.map { HARFormParameter(name: $0.name, value: $0.value) })
        #expect(form.bytes.map { String(decoding: $0, as: UTF8.self) }?.contains("&password=lab-password&") == true)

        // The text bodies are the bytes the lab got (its echo's length and digest).
        for index in 2...4 {
            let echo = try jsonObject(entries[index].response?.content?.bytes)
            let bytes = try #require(entries[index].request.body?.bytes)
            #expect(echo["body_length"] as? Int == bytes.count, "entry \(index)")
            #expect(echo["body_sha256"] as? String == sha256(bytes), "entry \(index)")
        }

        // Multipart: mitmproxy lists no params for it (its `params` are the URL-encoded form's
        // only); the text is the whole body, both parts in it.
        let multipart = try #require(entries[4].request.body)
        let multipartText = String(decoding: multipart.bytes ?? Data(), as: UTF8.self)
        #expect(multipart.mimeType?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(multipart.params.isEmpty)
        #expect(multipartText.contains(#"Content-Disposition: form-data; name="\#(sent.multipartField.name)""#))
        #expect(multipartText.contains(sent.multipartField.value))
        #expect(
            multipartText.contains(
                #"Content-Disposition: form-data; name="\#(sent.multipartFile.name)"; filename="\#(sent.multipartFile.fileName)""#))
        #expect(multipartText.contains("Content-Type: \(sent.multipartFile.contentType)"))
        #expect(multipartText.contains(sent.multipartFile.content))

        // Binary: the lab got the bytes as sent (its echo's digest), but mitmproxy writes a body
        // of a type with no charset as Latin-1 text, each byte one character U+0000–U+00FF, and
        // no `encoding`: read as the UTF-8 of that text, 0x00 stays 0x00 and 0xFF becomes C3 BF.
        // The bytes come back only by mapping each character to its byte.
        let binary = try #require(entries[5].request.body)
        #expect(binary.mimeType == "application/x-protobuf")
        #expect(!binary.wasBase64)
        let latin1Text = String(String.UnicodeScalarView(sent.binaryBody.compactMap { Unicode.Scalar(UInt32($0)) }))
        #expect(binary.bytes == Data(latin1Text.utf8))
        #expect(binary.bytes != sent.binaryBody)
        let recovered = String(decoding: binary.bytes ?? Data(), as: UTF8.self).unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        #expect(Data(recovered) == sent.binaryBody)
        let echo = try jsonObject(entries[5].response?.content?.bytes)
        #expect(echo["body_length"] as? Int == sent.binaryBody.count)
        #expect(echo["body_sha256"] as? String == sha256(sent.binaryBody))
        #expect(echo["sni"] as? String == sent.host)
        #expect(echo["local_address"] as? String == LabAddress.primary)

        // The redirects: two 302s naming the next hop, then the chain's end.
        #expect(entries[6].response?.redirectURL == "/redirect-chain/1")
        #expect(entries[7].response?.redirectURL == "/redirect-chain/0")
        #expect(entries[8].response?.redirectURL == nil)
        #expect(entries[8].response?.content?.bytes.map { String(decoding: $0, as: UTF8.self) } == "chain done")

        // The login: its answer carries the token curl read, and the session cookie.
        let login = try jsonObject(entries[9].response?.content?.bytes)
        #expect(login["token"] as? String == sent.token)
        #expect(login["user"] as? String == sent.user)
        #expect(entries[9].response?.cookies.map(\.name) == [LabSession.cookieName])
        #expect(lab.sessionTokens.contains(sent.token))

        // The session: the token as a bearer, answered on the address that logged in.
        #expect(entries[10].request.headers.filter { $0.name == "authorization" }.map(\.value) == ["Bearer \(sent.token)"])
        #expect(entries[10].response?.status == 200)
    }

    /// A text body of a UTF-8 type whose bytes are not UTF-8 (a Latin-1 é, a stray 0xFF): mitmproxy
    /// writes each bad byte as a lone surrogate escape (`\\udce9`, Python's surrogateescape).
    @Test func aTextBodyThatIsNotUTF8() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let body = Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0xFF, 0x21])  // "caf\xE9 \xFF!"
        let file = directory.appendingPathComponent("latin1.txt")
        try body.write(to: file)
        let url = "https://api.lab.test:\(lab.httpsPort)/echo"
        let har = try await MitmproxyCapture.record(
            lab: lab, directory: directory,
            requests: [
                CapturedCurl(["-H", "content-type: text/plain; charset=utf-8", "--data-binary", "@\(file.path)", url])
            ])
        let data = try Data(contentsOf: har)
        #expect(String(decoding: data, as: UTF8.self).contains(#""caf\udce9 \udcff!""#))
        let capture = try HARCapture.read(data, path: har.path)
        #expect(capture.entries.map(\.request.url) == [url])
        // Read, each bad byte U+FFFD (EF BF BD), as a UTF-8 decoder reads it; the lab got the bytes.
        let bytes = try #require(capture.entries.first?.request.body?.bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "caf\u{FFFD} \u{FFFD}!")
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: body, as: UTF8.self))
        let echo = try jsonObject(capture.entries.first?.response?.content?.bytes)
        #expect(echo["body_sha256"] as? String == sha256(body))
    }

    /// Fixtures/mitmproxy-lab.har: the app session as one run captured it (the lab on port 35487
    /// then), kept for tests that must not need mitmproxy; read as the live capture reads.
    @Test func theCommittedCaptureReads() throws {
        let file = Repository.root.appendingPathComponent("Tests/RunnerCaptureTests/Fixtures/mitmproxy-lab.har")
        let har = try HARCapture.read(try Data(contentsOf: file), path: file.path)
        #expect(har.creator == "mitmproxy")
        let paths = MitmproxyCapture.appSessionRequests.flatMap { request in
            request.path == "/redirect-chain/2"
                ? ["/redirect-chain/2", "/redirect-chain/1", "/redirect-chain/0"].map { "GET \($0)" }
                : ["\(request.method) \(request.path)"]
        }
        #expect(har.entries.map { "\($0.request.method) \($0.request.url)" } == paths.map {
            $0.replacingOccurrences(of: " /", with: " https://api.lab.test:35487/")
        })
        #expect(har.entries.allSatisfy { $0.serverIPAddress == HARServerAddress(address: LabAddress.primary) && !$0.failed })
        #expect(har.entries.map { $0.response?.status } == [200, 200, 200, 200, 200, 200, 302, 302, 200, 200, 200])
        #expect(har.entries.map(\.request.httpVersion).allSatisfy { $0 == .http2 })
    }

    private func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    private func jsonObject(_ data: Data?) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: try #require(data))
        return try #require(parsed as? [String: Any])
    }
}
