import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// The unbound DoH harness (`UnboundDoH`) checked from outside with curl, before the runner is
/// pointed at it: a real RFC 8484 server over HTTP/2, verified with its CA, answering GET and
/// POST with the records, the CNAME chain, NXDOMAIN and REFUSED the runner's tests rely on.
@Suite("unbound DoH harness", .timeLimit(.minutes(2)))
struct UnboundDoHHarnessTests {
    enum Method: String, CaseIterable { case GET, POST }

    /// What curl got back: the HTTP status, version and content type, and the body.
    struct Reply {
        var status: Int
        var httpVersion: String
        var contentType: String
        var body: [UInt8]
    }

    /// Asks `server` one DNS query with curl, by name over HTTP/2, verifying with its CA.
    func ask(_ server: UnboundDoH, _ query: [UInt8], _ method: Method) async throws -> Reply {
        let folder = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let answer = folder.appendingPathComponent("answer.bin").path
        var arguments = [
            "--silent", "--show-error", "--http2", "--max-time", "10",
            "--cacert", server.caFile,
            "--resolve", "\(UnboundDoH.serviceHost):\(server.port):\(UnboundDoH.listenAddress)",
            "-H", "accept: application/dns-message",
            "-o", answer, "-w", "%{http_code} %{http_version} %{content_type}",
        ]
        switch method {
        case .GET:
            arguments.append("\(server.url)?dns=\(DNSMessage.base64url(query))")
        case .POST:
            let body = folder.appendingPathComponent("query.bin")
            try Data(query).write(to: body)
            arguments += ["-H", "content-type: application/dns-message", "--data-binary", "@\(body.path)", server.url]
        }
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        let curlArguments = arguments
        let output = try await offPool { try ChildProcess.run(curl, curlArguments, deadline: .seconds(30)) }
        let printed = String(decoding: output.stdout, as: UTF8.self)
        try #require(
            output.status == 0,
            "curl \(method) failed (\(output.status)): \(String(decoding: output.stderr, as: UTF8.self)); unbound's log:\n\(server.log())")
        let fields = printed.split(separator: " ", maxSplits: 2).map(String.init)
        try #require(fields.count == 3, "curl printed \(printed)")
        return Reply(
            status: Int(fields[0]) ?? -1, httpVersion: fields[1], contentType: fields[2],
            body: [UInt8](try Data(contentsOf: URL(fileURLWithPath: answer))))
    }

    @Test func queryBytesMatchRFC8484sVector() {
        // RFC 8484 section 4.1.1: www.example.com, type A, ID 0, RD.
        let query = DNSMessage.query("www.example.com", type: DNSMessage.typeA)
        #expect(DNSMessage.base64url(query) == "AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB")
    }

    @Test(arguments: Method.allCases)
    func unboundAnswersTheLabsNames(method: Method) async throws {
        try await UnboundDoH.with { server in
            print("unbound served DoH on 127.0.0.1:\(server.port) \(server.startUpTime) after it was spawned")
            func check(
                _ name: String, _ type: UInt16, rcode: UInt8, answers: UInt16, endsWith tail: [UInt8] = [],
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws {
                let reply = try await ask(server, DNSMessage.query(name, type: type), method)
                let what = "\(method) \(name) type \(type)"
                #expect(reply.status == 200, "\(what): HTTP \(reply.status)", sourceLocation: sourceLocation)
                #expect(reply.httpVersion == "2", "\(what): HTTP/\(reply.httpVersion)", sourceLocation: sourceLocation)
                #expect(reply.contentType == "application/dns-message", "\(what): \(reply.contentType)", sourceLocation: sourceLocation)
                let header = try #require(DNSMessage.Header(reply.body), "\(what): \(reply.body.count) bytes", sourceLocation: sourceLocation)
                #expect(header.id == 0 && header.isResponse && header.questions == 1, "\(what): \(header)", sourceLocation: sourceLocation)
                #expect(header.rcode == rcode, "\(what): rcode \(header.rcode), not \(rcode)", sourceLocation: sourceLocation)
                #expect(header.answers == answers, "\(what): \(header.answers) answers, not \(answers)", sourceLocation: sourceLocation)
                // The answer section comes last (no authority or additional records in these):
                // its last record's data is the address.
                #expect(
                    Array(reply.body.suffix(tail.count)) == tail,
                    "\(what): ends with \(reply.body.suffix(tail.count)), not \(tail)", sourceLocation: sourceLocation)
            }
            let ipv4: [UInt8] = [127, 0, 0, 2]
            let ipv6: [UInt8] = Array(repeating: 0, count: 15) + [1]
            #expect(UnboundDoH.Names.apiIPv4 == "127.0.0.2" && UnboundDoH.Names.apiIPv6 == "::1")
            try await check(UnboundDoH.Names.api, DNSMessage.typeA, rcode: 0, answers: 1, endsWith: ipv4)
            try await check(UnboundDoH.Names.api, DNSMessage.typeAAAA, rcode: 0, answers: 1, endsWith: ipv6)
            // The CNAME, then the target's record, in one answer.
            try await check(UnboundDoH.Names.alias, DNSMessage.typeA, rcode: 0, answers: 2, endsWith: ipv4)
            try await check(UnboundDoH.Names.alias, DNSMessage.typeAAAA, rcode: 0, answers: 2, endsWith: ipv6)
            try await check(UnboundDoH.Names.missing, DNSMessage.typeA, rcode: DNSMessage.nxdomain, answers: 0)
            try await check(UnboundDoH.Names.refused, DNSMessage.typeA, rcode: DNSMessage.refused, answers: 0)
            // Nothing else is looked up anywhere: a name outside the lab is refused, not resolved.
            try await check("www.example.com", DNSMessage.typeA, rcode: DNSMessage.refused, answers: 0)
            // unbound logs each query it was asked (what the runner's tests read).
            #expect(server.queriesLogged(UnboundDoH.Names.api, type: "A") == 1, "\(server.log())")
            #expect(server.queriesLogged(UnboundDoH.Names.alias, type: "AAAA") == 1, "\(server.log())")
        }
    }

    @Test func stopEndsUnboundAndRemovesItsFolder() async throws {
        let server = try await UnboundDoH.start()
        #expect(UnboundDoH.accepts(port: server.port))
        #expect(server.startUpTime < .seconds(10))
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
        #expect(!UnboundDoH.accepts(port: server.port), "something still listens on \(server.port) after stop")
    }

    @Test func aTrustBundleHoldsBothCAs() async throws {
        let lab = try await SharedLab.get()
        try await UnboundDoH.with { server in
            let bundle = try String(contentsOfFile: server.trustBundle(adding: lab.caPEM), encoding: .utf8)
            #expect(bundle.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
            #expect(bundle.contains(server.caPEM) && bundle.contains(lab.caPEM))
        }
    }
}

/// DNS messages for the tests: RFC 1035 queries as RFC 8484 sends them (ID 0, RD), and the
/// header fields of an answer.
enum DNSMessage {
    static let typeA: UInt16 = 1
    static let typeAAAA: UInt16 = 28
    static let nxdomain: UInt8 = 3
    static let refused: UInt8 = 5

    static func query(_ name: String, type: UInt16) -> [UInt8] {
        // ID 0; flags: RD; one question, no other records.
        var message: [UInt8] = [0, 0, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        for label in name.split(separator: ".") {
            message.append(UInt8(label.utf8.count))
            message += Array(label.utf8)
        }
        message += [0, UInt8(type >> 8), UInt8(type & 0xFF), 0, 1]  // root, QTYPE, QCLASS IN
        return message
    }

    /// base64url without padding (RFC 8484 section 4.1).
    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    struct Header: CustomStringConvertible {
        var id: UInt16
        var isResponse: Bool
        var rcode: UInt8
        var questions: UInt16
        var answers: UInt16

        init?(_ message: [UInt8]) {
            guard message.count >= 12 else { return nil }
            func word(_ at: Int) -> UInt16 { UInt16(message[at]) << 8 | UInt16(message[at + 1]) }
            id = word(0)
            isResponse = message[2] & 0x80 != 0
            rcode = message[3] & 0x0F
            questions = word(4)
            answers = word(6)
        }

        var description: String { "id \(id) qr \(isResponse) rcode \(rcode) qd \(questions) an \(answers)" }
    }
}
