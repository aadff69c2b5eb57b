import Foundation
import Testing

@testable import RunnerLab

/// One RFC 8484 query (unpadded base64url, encoded by hand like the RFC's own example, ID 0 and RD
/// unless said) and the reply it must get, read back with ldns.
struct DoHCase: CustomTestStringConvertible, Sendable {
    let name: String
    let dns: String
    let responseCode: DNSReply.ResponseCode
    var truncated = false
    let answers: [DNSReply.Record]

    var testDescription: String { name }

    /// RFC 8484 §4.1.1's example: `www.example.com` A, which the lab does not know.
    static let rfcExample = "AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB"
    static let apiA = "AAABAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQAB"

    static func a(_ owner: String, _ address: String, ttl: Int = 60) -> DNSReply.Record {
        .init(owner: owner, ttl: ttl, data: .a(address))
    }

    static let all: [DoHCase] = [
        .init(
            name: "api.lab.test A", dns: apiA, responseCode: .noError,
            answers: [a("api.lab.test.", "127.0.0.2"), a("api.lab.test.", "127.0.0.5")]),
        .init(
            name: "api.lab.test AAAA", dns: "AAABAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAHAAB", responseCode: .noError,
            answers: [.init(owner: "api.lab.test.", ttl: 60, data: .aaaa("::1"))]),
        // The question's case comes back as asked, in the question and the answers' owner.
        .init(
            name: "API.Lab.Test A", dns: "AAABAAABAAAAAAAAA0FQSQNMYWIEVGVzdAAAAQAB", responseCode: .noError,
            answers: [a("API.Lab.Test.", "127.0.0.2"), a("API.Lab.Test.", "127.0.0.5")]),
        .init(
            name: "cname.lab.test A", dns: "AAABAAABAAAAAAAABWNuYW1lA2xhYgR0ZXN0AAABAAE", responseCode: .noError,
            answers: [
                .init(owner: "cname.lab.test.", ttl: 60, data: .cname("api.lab.test.")),
                a("api.lab.test.", "127.0.0.2"), a("api.lab.test.", "127.0.0.5"),
            ]),
        .init(
            name: "cname.lab.test AAAA", dns: "AAABAAABAAAAAAAABWNuYW1lA2xhYgR0ZXN0AAAcAAE", responseCode: .noError,
            answers: [
                .init(owner: "cname.lab.test.", ttl: 60, data: .cname("api.lab.test.")),
                .init(owner: "api.lab.test.", ttl: 60, data: .aaaa("::1")),
            ]),
        .init(
            name: "shortttl.lab.test A", dns: "AAABAAABAAAAAAAACHNob3J0dHRsA2xhYgR0ZXN0AAABAAE", responseCode: .noError,
            answers: [a("shortttl.lab.test.", "127.0.0.2", ttl: 1)]),
        .init(name: "www.example.com A (the RFC's example)", dns: rfcExample, responseCode: .nameError, answers: []),
        .init(name: "nowhere.lab.test A", dns: "AAABAAABAAAAAAAAB25vd2hlcmUDbGFiBHRlc3QAAAEAAQ", responseCode: .nameError, answers: []),
        .init(name: "empty.lab.test A", dns: "AAABAAABAAAAAAAABWVtcHR5A2xhYgR0ZXN0AAABAAE", responseCode: .noError, answers: []),
        .init(name: "v6only.lab.test A", dns: "AAABAAABAAAAAAAABnY2b25seQNsYWIEdGVzdAAAAQAB", responseCode: .noError, answers: []),
        .init(name: "api.lab.test MX", dns: "AAABAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAADwAB", responseCode: .noError, answers: []),
        .init(
            name: "servfail.lab.test A", dns: "AAABAAABAAAAAAAACHNlcnZmYWlsA2xhYgR0ZXN0AAABAAE", responseCode: .serverFailure,
            answers: []),
        .init(name: "refused.lab.test A", dns: "AAABAAABAAAAAAAAB3JlZnVzZWQDbGFiBHRlc3QAAAEAAQ", responseCode: .refused, answers: []),
        .init(
            name: "truncated.lab.test A", dns: "AAABAAABAAAAAAAACXRydW5jYXRlZANsYWIEdGVzdAAAAQAB", responseCode: .noError,
            truncated: true, answers: []),
        .init(
            name: "aged.lab.test A", dns: "AAABAAABAAAAAAAABGFnZWQDbGFiBHRlc3QAAAEAAQ", responseCode: .noError,
            answers: [a("aged.lab.test.", "127.0.0.2", ttl: 100)]),
        // The JSON format's strictness names are unknown here.
        .init(name: "badjson.lab.test A", dns: "AAABAAABAAAAAAAAB2JhZGpzb24DbGFiBHRlc3QAAAEAAQ", responseCode: .nameError, answers: []),
    ]
}

@Suite("Lab: RFC 8484 DNS over HTTPS (wire format)", .timeLimit(.minutes(3)))
struct DoHWireTests {
    static func url(_ lab: Lab, address: String = LabAddress.primary) -> String {
        "http://\(LabError.endpoint(address, lab.httpPort))/dns-query"
    }

    static func get(_ lab: Lab, _ dns: String, _ extra: [String] = []) async throws -> CommandResult {
        try await Command.curl(
            ["--dump-header", "/dev/stderr", "-H", "Accept: application/dns-message"] + extra
                + [url(lab) + "?dns=\(dns)"])
    }

    static func post(
        _ lab: Lab, _ message: [UInt8], contentType: String = "application/dns-message", _ extra: [String] = []
    ) async throws -> CommandResult {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lab-doh-\(UUID().uuidString)")
        try Data(message).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await Command.curl(
            ["--dump-header", "/dev/stderr", "-H", "Content-Type: \(contentType)", "--data-binary", "@\(file.path)"]
                + extra + [url(lab)])
    }

    static func bytes(_ dns: String) throws -> [UInt8] {
        try #require(Base64URL.decode(dns), "\(dns) is not unpadded base64url")
    }

    /// The reply in `result`, after checking it is a 200 of type application/dns-message.
    static func reply(_ result: CommandResult, _ context: String) throws -> DNSResponse {
        #expect(result.exitCode == 0, "\(context): \(result.errorOutput)")
        let head = try #require(result.heads.last, "\(context): no response head in \(result.errorOutput)")
        #expect(head.status == 200, "\(context): \(head)")
        #expect(head.value("content-type") == "application/dns-message", "\(context): \(head)")
        return try LDNSCodec.response(from: Array(result.output))
    }

    @Test("the RFC's example query reads as www.example.com A, ID 0, RD; the lab's vectors as their names")
    func vectors() throws {
        let example = try LDNSCodec.query(from: Self.bytes(DoHCase.rfcExample))
        #expect(example.id == 0)
        #expect(example.name == "www.example.com.")
        #expect(example.type == DNSQuery.typeA)
        #expect(example.recordClass == DNSQuery.classIN)
        #expect(example.recursionDesired)
        #expect(!example.usesEDNS)
        for lookup in DoHCase.all {
            let query = try LDNSCodec.query(from: Self.bytes(lookup.dns))
            #expect(lookup.name.hasPrefix(query.name.dropLast() + " "), "\(lookup.name): \(query.name)")
        }
    }

    @Test("base64url as RFC 8484 sends it, strictly: no padding, no + or /")
    func base64URL() {
        #expect(Base64URL.decode("AAABAAABAAAAAAAABWNuYW1lA2xhYgR0ZXN0AAABAAE")?.count == 32)
        #expect(Base64URL.decode("AAABAAABAAAAAAAABWNuYW1lA2xhYgR0ZXN0AAABAAE=") == nil)
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("AAAAA") == nil)
        #expect(Base64URL.decode("") == [])
    }

    @Test("GET answers from the table", arguments: DoHCase.all)
    func answersGET(_ lookup: DoHCase) async throws {
        let lab = try await StatelessLab.get()
        let response = try Self.reply(try await Self.get(lab, lookup.dns), lookup.name)
        let query = try LDNSCodec.query(from: Self.bytes(lookup.dns))
        #expect(response.id == 0)
        #expect(response.questionName == query.name)
        #expect(response.questionType == query.type)
        #expect(response.recursionDesired && response.recursionAvailable)
        #expect(!response.usesEDNS)
        #expect(response.reply == DNSReply(responseCode: lookup.responseCode, truncated: lookup.truncated, answers: lookup.answers))
    }

    @Test("POST answers the same, echoing the query's ID and RD")
    func answersPOST() async throws {
        let lab = try await StatelessLab.get()
        for lookup in DoHCase.all {
            let response = try Self.reply(try await Self.post(lab, try Self.bytes(lookup.dns)), lookup.name)
            #expect(response.reply == DNSReply(responseCode: lookup.responseCode, truncated: lookup.truncated, answers: lookup.answers), "\(lookup.name)")
        }
        // ID 0xbeef; then RD clear, which the reply copies.
        let beef = try Self.reply(try await Self.post(lab, try Self.bytes("vu8BAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQAB")), "ID 0xbeef")
        #expect(beef.id == 0xbeef)
        let noRD = try Self.reply(try await Self.post(lab, try Self.bytes("AAAAAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQAB")), "no RD")
        #expect(!noRD.recursionDesired && noRD.recursionAvailable)
        #expect(noRD.reply.answers.count == 2)
    }

    @Test("the reply's bytes are the expected message (ldns compresses the answers' owner to the question's)")
    func exactBytes() async throws {
        let lab = try await StatelessLab.get()
        let result = try await Self.get(lab, "vu8BAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQAB")
        let expected =
            "beef8180000100020000000003617069036c616204746573740000010001"
            + "c00c000100010000003c00047f000002c00c000100010000003c00047f000005"
        #expect(OpenSSLTool.hex(result.output) == expected)
    }

    @Test("a query with an OPT record gets one back")
    func edns() async throws {
        let lab = try await StatelessLab.get()
        let dns = "AAABAAABAAAAAAABA2FwaQNsYWIEdGVzdAAAAQABAAApEAAAAAAAAAA"
        #expect(try LDNSCodec.query(from: Self.bytes(dns)).usesEDNS)
        let response = try Self.reply(try await Self.get(lab, dns), "EDNS")
        #expect(response.usesEDNS)
        #expect(response.reply.answers.count == 2)
    }

    @Test("aged.lab.test carries Age: 30; other answers no Age")
    func age() async throws {
        let lab = try await StatelessLab.get()
        let aged = try await Self.get(lab, "AAABAAABAAAAAAAABGFnZWQDbGFiBHRlc3QAAAEAAQ")
        #expect(aged.heads.last?.value("age") == "30", "\(aged.errorOutput)")
        #expect(try Self.reply(aged, "aged").reply.answers.map(\.ttl) == [100])
        let api = try await Self.get(lab, DoHCase.apiA)
        #expect(api.heads.last?.values("age") == [], "\(api.errorOutput)")
    }

    @Test("what is not a DNS query is refused at the HTTP level, and not counted")
    func badRequests() async throws {
        try await withLab { lab in
            let cases: [(String, [String], Int)] = [
                ("no dns=", [Self.url(lab)], 400),
                ("padded", [Self.url(lab) + "?dns=AAABAAABAAAAAAAABWNuYW1lA2xhYgR0ZXN0AAABAAE="], 400),
                ("standard alphabet", [Self.url(lab) + "?dns=AAAB%2BAAB"], 400),
                ("too short", [Self.url(lab) + "?dns=AAAB"], 400),
                // A response (QR set) is no query.
                ("QR set", [Self.url(lab) + "?dns=AACBAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQAB"], 400),
                ("two questions", [Self.url(lab) + "?dns=AAABAAACAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQABA3NuaQNsYWIEdGVzdAAAAQAB"], 400),
                ("a cut message", [Self.url(lab) + "?dns=AAABAAABAAAAAAAAA2FwaQNsYWIEdGVzdAAAAQ"], 400),
                ("PUT", ["-X", "PUT", Self.url(lab) + "?dns=\(DoHCase.apiA)"], 405),
            ]
            for (name, arguments, status) in cases {
                let result = try await Command.curl(["--dump-header", "/dev/stderr"] + arguments)
                #expect(result.heads.last?.status == status, "\(name): \(result.errorOutput) \(result.text)")
            }
            let wrongType = try await Self.post(lab, try Self.bytes(DoHCase.apiA), contentType: "application/octet-stream")
            #expect(wrongType.heads.last?.status == 415, "\(wrongType.errorOutput)")
            let garbage = try await Self.post(lab, Array("not a dns message".utf8))
            #expect(garbage.heads.last?.status == 400, "\(garbage.errorOutput)")
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 0)
            #expect(lab.httpdnsLookups(host: "sni.lab.test") == 0)
            #expect(lab.requestsReceived(path: "/dns-query") == 10)
        }
    }

    @Test("fault hosts misbehave at the HTTP level as in every format")
    func faults() async throws {
        try await withLab { lab in
            async let slow = Self.get(lab, "AAABAAABAAAAAAAABHNsb3cDbGFiBHRlc3QAAAEAAQ")
            let garbage = try await Self.get(lab, "AAABAAABAAAAAAAAB2dhcmJhZ2UDbGFiBHRlc3QAAAEAAQ")
            #expect(garbage.heads.last?.status == 200)
            #expect(garbage.heads.last?.value("content-type")?.hasPrefix("text/html") == true, "\(garbage.errorOutput)")
            #expect(garbage.text == LabDNS.garbagePage)
            let error = try await Self.get(lab, "AAABAAABAAAAAAAABWVycm9yA2xhYgR0ZXN0AAABAAE")
            #expect(error.heads.last?.status == 500, "\(error.errorOutput)")
            #expect(error.text == LabDNS.serverErrorText)
            let hang = try await Command.run(
                "curl",
                ["--silent", "--max-time", "1", "--include", Self.url(lab) + "?dns=AAABAAABAAAAAAAABGhhbmcDbGFiBHRlc3QAAAEAAQ"])
            #expect(hang.exitCode == 28, "curl should time out: \(hang.errorOutput)")
            #expect(hang.output.isEmpty)
            let slowReply = try Self.reply(try await slow, "slow")
            #expect(slowReply.reply.answers == [DoHCase.a("slow.lab.test.", LabDNS.slowAnswer.ipv4[0])])
            #expect(lab.httpdnsLookups(format: .doh, host: "hang.lab.test") == 1)
            #expect(lab.httpdnsLookups(format: "doh", host: "slow.lab.test") == 1)
        }
    }

    @Test("lookups count per format and name, over HTTP/1.1 and HTTP/2, GET and POST")
    func counts() async throws {
        try await withLab { lab in
            _ = try Self.reply(try await Self.get(lab, DoHCase.apiA), "GET")
            _ = try Self.reply(try await Self.post(lab, try Self.bytes("AAABAAABAAAAAAAAA0FQSQNMYWIEVGVzdAAAAQAB")), "POST")
            let h2 = try await Command.curl([
                "--http2", "--cacert", lab.caFile, "--dump-header", "/dev/stderr",
                "--connect-to", "api.lab.test:\(lab.httpsPort):\(authority(LabAddress.primary, lab.httpsPort))",
                "https://api.lab.test:\(lab.httpsPort)/dns-query?dns=\(DoHCase.apiA)",
            ])
            #expect(h2.heads.last?.statusLine.hasPrefix("HTTP/2 200") == true, "\(h2.errorOutput)")
            #expect(try LDNSCodec.response(from: Array(h2.output)).reply.answers.count == 2)
            _ = try Self.reply(try await Self.get(lab, "AAABAAABAAAAAAAACHNlcnZmYWlsA2xhYgR0ZXN0AAABAAE"), "SERVFAIL")
            #expect(lab.httpdnsLookups(format: .doh, host: "api.lab.test") == 3)
            #expect(lab.httpdnsLookups(format: .dohJSON, host: "api.lab.test") == 0)
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 3)
            #expect(lab.httpdnsLookups(format: "doh", host: "servfail.lab.test") == 1)
        }
    }
}
