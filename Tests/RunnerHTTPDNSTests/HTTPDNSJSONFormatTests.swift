import Foundation
import RunnerPlan
import RunnerVocabulary
import Testing

@testable import RunnerHTTPDNS

/// `format: json`: the answer mapped by the plan's JSONPaths, strictly.
@Suite("HTTPDNS json answers (mapped by JSONPath)")
struct HTTPDNSJSONFormatTests {
    static func path(_ text: String) -> JSONPath {
        var components: [JSONPath.Component] = []
        for part in text.dropFirst(2).split(separator: ".") {
            if part.hasSuffix("[*]") {
                components += [.member(String(part.dropLast(3))), .everyElement]
            } else if let open = part.firstIndex(of: "["), let index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]) {
                components += [.member(String(part[..<open])), .index(index)]
            } else {
                components.append(.member(String(part)))
            }
        }
        return JSONPath(components: components, text: text)
    }

    /// Volcengine-like: `{"data":{"ipv4":[…],"ipv6":[…],"ttl":T}}`.
    static let volc = HTTPDNSSpec.Format.json(JSONAnswerMapping(
        ips: path("$.data.ipv4[*]"), ipv6: path("$.data.ipv6[*]"), ttl: path("$.data.ttl")))
    /// In-house: addresses under objects in a list.
    static let nested = HTTPDNSSpec.Format.json(JSONAnswerMapping(ips: path("$.result.a[*].ip"), ttl: path("$.ttl")))

    static func read(
        _ format: HTTPDNSSpec.Format, _ body: String, family: IPAddress.Family? = nil, status: Int = 200
    ) -> HTTPDNSOutcome {
        do throws(HTTPDNSProblem) {
            let query = HTTPDNSQuery(url: "https://httpdns.example/r?n=api.example.com", family: family)
            let reply = HTTPDNSReply(status: status, body: Data(body.utf8))
            return HTTPDNSOutcome(.success(try format.wire.answer(to: query, host: "api.example.com", reply: reply)))
        } catch {
            return HTTPDNSOutcome(.failure(error))
        }
    }

    @Test("addresses from both paths, v4 first, the TTL, duplicates once")
    func answers() {
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["1.1.1.1","2.2.2.2","1.1.1.1"],"ipv6":["240e::1"],"ttl":60}}"#)
            == .ok(["1.1.1.1", "2.2.2.2", "240e::1"], ttl: 60))
        #expect(Self.read(Self.nested, #"{"result":{"a":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}]},"ttl":30.9}"#)
            == .ok(["10.0.0.1", "10.0.0.2"], ttl: 30))
    }

    @Test("one string is one address; an array selected without [*] is each of its strings")
    func shapes() {
        let single = HTTPDNSSpec.Format.json(JSONAnswerMapping(ips: Self.path("$.answer.v4")))
        #expect(Self.read(single, #"{"answer":{"v4":"192.0.2.9"}}"#) == .ok(["192.0.2.9"]))
        #expect(Self.read(single, #"{"answer":{"v4":["192.0.2.9","192.0.2.10"]}}"#) == .ok(["192.0.2.9", "192.0.2.10"]))
    }

    @Test("the family the query asks for is kept; none left is no answer naming the paths")
    func family() {
        let body = #"{"data":{"ipv4":["1.1.1.1"],"ipv6":["240e::1"],"ttl":60}}"#
        #expect(Self.read(Self.volc, body, family: .v4) == .ok(["1.1.1.1"], ttl: 60))
        #expect(Self.read(Self.volc, body, family: .v6) == .ok(["240e::1"], ttl: 60))
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["1.1.1.1"],"ipv6":[]}}"#, family: .v6)
            == .noAnswer("no answer (no IPv6 address at $.data.ipv4[*] or $.data.ipv6[*])"))
    }

    @Test("nothing selected, empty lists and null are no answer")
    func noAnswer() {
        let expected = HTTPDNSOutcome.noAnswer("no answer (no address at $.data.ipv4[*] or $.data.ipv6[*])")
        #expect(Self.read(Self.volc, #"{"data":{}}"#) == expected)
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":[],"ipv6":null}}"#) == expected)
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":[null]}}"#) == expected)
        #expect(Self.read(Self.volc, #"[]"#) == expected)
    }

    @Test("a value that is not an address is an error quoting the path and the value")
    func strictAddresses() {
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["localhost"]}}"#)
            == .garbage(#"not a JSON answer ($.data.ipv4[*] holds 'localhost', not an IP address): '{"data":{"ipv4":["localhost"]}}' (31 bytes)"#))
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":[7]}}"#)
            == .garbage(#"not a JSON answer ($.data.ipv4[*] holds '7', not an IP address string): '{"data":{"ipv4":[7]}}' (21 bytes)"#))
        #expect(Self.read(Self.volc, #"{"data":{"ipv6":["1.2.3.4"]}}"#)
            == .garbage(#"not a JSON answer ($.data.ipv6[*] holds the IPv4 address '1.2.3.4'): '{"data":{"ipv6":["1.2.3.4"]}}' (29 bytes)"#))
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["1.2.3.4 "]}}"#)
            == .garbage(#"not a JSON answer ($.data.ipv4[*] holds '1.2.3.4 ', not an IP address): '{"data":{"ipv4":["1.2.3.4 "]}}' (30 bytes)"#))
    }

    @Test("a TTL must be one number from 0 to a year")
    func strictTTL() {
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["1.1.1.1"],"ttl":-5}}"#)
            == .garbage(#"not a JSON answer ($.data.ttl holds '-5', not a TTL (seconds from 0 to a year)): '{"data":{"ipv4":["1.1.1.1"],"ttl":-5}}' (38 bytes)"#))
        #expect(Self.read(Self.volc, #"{"data":{"ipv4":["1.1.1.1"],"ttl":"60"}}"#)
            == .garbage(#"not a JSON answer ($.data.ttl holds '"60"', not a TTL (seconds from 0 to a year)): '{"data":{"ipv4":["1.1.1.1"],"ttl":"60"}}' (40 bytes)"#))
        let many = HTTPDNSSpec.Format.json(JSONAnswerMapping(ips: Self.path("$.a[*]"), ttl: Self.path("$.t[*]")))
        #expect(Self.read(many, #"{"a":["1.1.1.1"],"t":[1,2]}"#)
            == .garbage(#"not a JSON answer ($.t[*] selects 2 values for the TTL, not one): '{"a":["1.1.1.1"],"t":[1,2]}' (27 bytes)"#))
        #expect(Self.read(many, #"{"a":["1.1.1.1"],"t":[true]}"#)
            == .garbage(#"not a JSON answer ($.t[*] holds 'true', not a TTL (seconds from 0 to a year)): '{"a":["1.1.1.1"],"t":[true]}' (28 bytes)"#))
        #expect(Self.read(many, #"{"a":["1.1.1.1"],"t":[99999999999]}"#).description.contains("not a TTL"))
    }

    /// Fuzz regression (json/control-characters-in-path): a plan's path may hold control
    /// characters (YAML escapes), and texts must stay printable.
    @Test("a path is shown escaped in texts")
    func pathEscaped() {
        let odd = HTTPDNSSpec.Format.json(JSONAnswerMapping(
            ips: JSONPath(components: [.member("an\u{01}")], text: "$.an\u{01}")))
        #expect(Self.read(odd, #"{"answer":1}"#) == .noAnswer(#"no answer (no address at $.an\x01)"#))
    }

    @Test("not JSON, and a status other than 2xx, are errors quoting the body")
    func notJSON() {
        #expect(Self.read(Self.volc, "<html>oops</html>") == .garbage("not a JSON answer: '<html>oops</html>' (17 bytes)"))
        #expect(Self.read(Self.volc, #"{"error":{"code":"InvalidSignature"}}"#, status: 403)
            == .serviceError(#"HTTP 403: '{"error":{"code":"InvalidSignature"}}' (37 bytes)"#))
    }

    @Test("the query is the URL as written, host filled in, no family parameter")
    func query() throws {
        let queries = try Self.volc.wire.queries(
            template: "https://httpdns.example/resolve?domain={host}&account_id=1", host: "api.example.com", ipVersion: .any)
        #expect(queries == [HTTPDNSQuery(url: "https://httpdns.example/resolve?domain=api.example.com&account_id=1")])
        let v6 = try Self.volc.wire.queries(template: "https://h.example/r?d={host}", host: "a.example", ipVersion: .v6)
        #expect(v6.map(\.family) == [.v6])
    }
}
