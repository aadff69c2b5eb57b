import Foundation
import RunnerLab

extension MitmproxyCapture {
    /// What the "app-like" session sent and got, for a test to hold the HAR against.
    public struct AppSession: Sendable {
        /// The lab's HTTPS port: every URL is `https://api.lab.test:PORT/…`.
        public var httpsPort: Int
        /// The host every request named.
        public var host: String
        /// How curl spoke to the proxy (`--http2`: HTTP/2 by ALPN, which the lab offers too).
        public var httpVersionFlag: String
        /// `x-api-key`'s value, sent with the first GET /json only.
        public var apiKey: String
        /// The JSON body of the JSON POST to /echo.
        public var jsonBody: String
        /// The form POST's fields, in order.
        public var formFields: [(name: String, value: String)]
        /// The multipart POST's text field, and its file part's name, file name, type and content.
        public var multipartField: (name: String, value: String)
        public var multipartFile: (name: String, fileName: String, contentType: String, content: String)
        /// The binary POST's body (`application/x-protobuf`), 0x00 and 0xFF among its bytes.
        public var binaryBody: Data
        /// The user that logged in, and the token the login answered (read from curl's output).
        public var user: String
        public var token: String
        /// What curl printed for each request, in order.
        public var outputs: [String]
    }

    /// The requests, in order, the acceptance test of `runner init --har` captures, each a path on
    /// api.lab.test and its method (the redirect chain counts once: curl -L follows it).
    public static let appSessionRequests: [(method: String, path: String)] = [
        ("GET", "/json"), ("GET", "/json"), ("POST", "/echo"), ("POST", "/echo"), ("POST", "/echo"),
        ("POST", "/echo"), ("GET", "/redirect-chain/2"), ("POST", "/session/login"), ("GET", "/session/me"),
    ]

    /// Records an app's session with the lab through mitmdump, in a fresh folder of `directory`:
    /// GET /json (with an `x-api-key`), the same GET /json again, a JSON POST, a form POST (a
    /// `password` field among its fields), a multipart POST (a text field and a small file) and a
    /// binary POST (`application/x-protobuf`, 0x00 and 0xFF among its bytes) to /echo, GET
    /// /redirect-chain/2 followed (two 302s, then a 200), POST /session/login, then GET
    /// /session/me with the token the login answered as `Authorization: Bearer`. HTTP/2 throughout.
    public static func appSession(lab: Lab, directory: URL) async throws -> Capture<AppSession> {
        let host = labHosts[0].name
        let base = "https://\(host):\(lab.httpsPort)"
        let version = "--http2"
        let apiKey = "sk_lab_7f3a9c2e5b8d41f6a0e3c9b7d2f54e18"
        let jsonBody = #"{"item":"lab-book","quantity":2,"gift":true}"#
        let formFields: [(name: String, value: String)] = [("user", "alice"), ("password", LabSession.password), ("note", "hello lab & co")]
        let multipartField = (name: "caption", value: "a note from the app")
        let multipartFile = (name: "attachment", fileName: "note.txt", contentType: "text/plain", content: "small file part\n")
        let binaryBody = Data([0x0A, 0x04, 0x6C, 0x61, 0x62, 0x00, 0x10, 0xFF, 0x01, 0x1A, 0x02, 0x00, 0xFF, 0x80, 0x7F])
        let user = "alice"

        let files = directory.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let filePart = files.appendingPathComponent(multipartFile.fileName)
        try Data(multipartFile.content.utf8).write(to: filePart)
        let binaryFile = files.appendingPathComponent("body.bin")
        try binaryBody.write(to: binaryFile)

        return try await record(lab: lab, directory: directory) { proxy in
            var outputs: [String] = []
            func send(_ arguments: [String]) async throws -> String {
                let output = try await proxy.curl(CapturedCurl([version, "--fail-with-body"] + arguments)).stdout
                outputs.append(output)
                return output
            }
            _ = try await send(["-H", "x-api-key: \(apiKey)", "\(base)/json"])
            _ = try await send(["\(base)/json"])
            _ = try await send(["-H", "content-type: application/json", "--data-binary", jsonBody, "\(base)/echo"])
            _ = try await send(
                formFields.flatMap { ["--data-urlencode", "\($0.name)=\($0.value)"] } + ["\(base)/echo"])
            _ = try await send([
                "-F", "\(multipartField.name)=\(multipartField.value)",
                "-F", "\(multipartFile.name)=@\(filePart.path);filename=\(multipartFile.fileName);type=\(multipartFile.contentType)",
                "\(base)/echo",
            ])
            _ = try await send([
                "-H", "content-type: application/x-protobuf", "--data-binary", "@\(binaryFile.path)", "\(base)/echo",
            ])
            _ = try await send(["-L", "\(base)/redirect-chain/2"])
            let login = try await send([
                "-H", "content-type: application/json",
                "--data-binary", #"{"user":"\#(user)","password":"\#(LabSession.password)"}"#, "\(base)/session/login",
            ])
            guard let answer = (try? JSONSerialization.jsonObject(with: Data(login.utf8))) as? [String: Any],
                let token = answer["token"] as? String, !token.isEmpty
            else { throw NoToken(answer: login) }
            _ = try await send(["-H", "authorization: Bearer \(token)", "\(base)/session/me"])
            return AppSession(
                httpsPort: lab.httpsPort, host: host, httpVersionFlag: version, apiKey: apiKey, jsonBody: jsonBody,
                formFields: formFields, multipartField: multipartField, multipartFile: multipartFile,
                binaryBody: binaryBody, user: user, token: token, outputs: outputs)
        }
    }

    struct NoToken: Error, CustomStringConvertible {
        var answer: String
        var description: String { "the login answered no token: \(answer.prefix(500))" }
    }
}
