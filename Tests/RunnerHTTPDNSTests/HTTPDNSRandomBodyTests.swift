import PlanFixtures
import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// Property checks on random bodies: the parsers never crash, and what they return is coherent.
@Suite("HTTPDNS parsers on random bodies")
struct HTTPDNSRandomBodyTests {
    /// Every format a plan accepts: a new one is covered here without a list to extend (the
    /// switches below make it a compile error until it has recordings and a garbage prefix).
    static let formats = HTTPDNSSpec.Format.Name.allCases

    /// Bodies the parsers accept, mutated below so the random input reaches deep into each grammar.
    static func recorded(_ name: HTTPDNSSpec.Format.Name) -> [Data] {
        switch name {
        case .dnspod:
            [
                "1.1.1.1;2.2.2.2,120-240e::1;240e::2,120|10.0.0.1",
                "other.example.com.:9.9.9.9,60\napi.example.com.:1.2.3.4;5.6.7.8,120",
                "183.47.248.109;125.90.206.144,17",
                "api.example.com.:1.2.3.4,60\nother.example.com|240e::9",
            ].map { Data($0.utf8) }
        case .alibaba:
            [
                #"{"host":"api.example.com","ips":["1.1.1.1","2.2.2.2"],"ipsv6":["240e::1"],"ttl":60,"origin_ttl":600,"client_ip":"101.1.2.3"}"#,
                #"{"host":"api.example.com","ttl":60,"origin_ttl":"60","client_ip":"","extra":{"k":"v"}}"#,
            ].map { Data($0.utf8) }
        case .alibabaV2:
            [
                #"{"code":"success","mode":"0","data":{"answers":[{"dn":"api.example.com","v4":{"ips":["1.1.1.1","2.2.2.2"],"ttl":60},"v6":{"ips":["240e::1"],"ttl":120}}]}}"#,
                #"{"code":"success","mode":"0","data":"{\"answers\":[{\"dn\":\"api.example.com\",\"v4\":{\"ips\":[],\"ttl\":60,\"no_ip_code\":\"DomainNotFound\"}}]}"}"#,
                #"{"code":"success","mode":0,"data":{"cip":"120.196.0.1","answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3.4"],"ttl":20}}]}}"#,
            ].map { Data($0.utf8) }
        case .dohJSON:
            [
                #"{"Status":0,"Question":[{"name":"api.example.com.","type":1}],"Answer":[{"name":"api.example.com.","type":5,"TTL":30,"data":"x.example.net."},{"name":"x.example.net.","type":1,"TTL":60,"data":"1.2.3.4"},{"name":"x.example.net.","type":28,"TTL":60,"data":"240e::1"}]}"#
            ].map { Data($0.utf8) }
        case .json:
            [
                #"{"data":{"ipv4":["1.1.1.1","2.2.2.2"],"ipv6":["240e::1"],"ttl":60}}"#,
                #"{"data":{"ipv4":[],"ipv6":null,"ttl":0}}"#,
            ].map { Data($0.utf8) }
        case .doh:
            [
                DNSFixture.response(answers: [.a("api.example.com", "1.2.3.4", ttl: 60), .a("api.example.com", "5.6.7.8", ttl: 120)]),
                DNSFixture.response(answers: [
                    .cname("api.example.com", "x.example.net", ttl: 30), .a("x.example.net", "1.2.3.4", ttl: 60),
                ]),
            ]
        }
    }

    /// The format under test, a json one mapped as the recordings are laid out.
    static func format(_ name: HTTPDNSSpec.Format.Name) -> HTTPDNSSpec.Format {
        switch name {
        case .dnspod: .dnspod
        case .alibaba: .alibaba
        case .alibabaV2: .alibabaV2
        case .dohJSON: .dohJSON
        case .json: .json(jsonMapping)
        case .doh: .doh(method: .get)
        }
    }

    static let jsonMapping = JSONAnswerMapping(
        ips: JSONPath(components: [.member("data"), .member("ipv4"), .everyElement], text: "$.data.ipv4[*]"),
        ipv6: JSONPath(components: [.member("data"), .member("ipv6")], text: "$.data.ipv6"),
        ttl: JSONPath(components: [.member("data"), .member("ttl")], text: "$.data.ttl"))

    /// Bytes that matter to the grammars, so random strings are often almost valid.
    static let alphabet = Array("0123456789abcdef.:;,-|\n\r {}[]\":ipsv6ttlStatusAnswerTypedata".utf8) + [0, 0xC3, 0xFF]

    /// How a garbage problem of the format starts.
    static func garbagePrefix(_ name: HTTPDNSSpec.Format.Name) -> String {
        switch name {
        case .dnspod: "not a DNSPod answer"
        case .alibaba: "not an Alibaba HTTPDNS answer"
        case .alibabaV2: "not an Alibaba /v2/d answer"
        case .dohJSON: "not a DoH JSON answer"
        case .json: "not a JSON answer"
        case .doh: "not a DNS message"
        }
    }

    /// The TTLs an answer may have: a year for the HTTPDNS formats; a DNS record's is 32 bits.
    static func ttls(_ name: HTTPDNSSpec.Format.Name) -> ClosedRange<Int> {
        switch name {
        case .dnspod, .alibaba, .alibabaV2, .dohJSON, .json: 0...HTTPDNSFields.maxTTL
        case .doh: 0...Int(UInt32.max)
        }
    }

    enum Source: String, CaseIterable, Sendable {
        case randomBytes, grammarBytes, mutatedRecordings
    }

    @Test("every result is coherent", arguments: formats, Source.allCases)
    func coherent(name: HTTPDNSSpec.Format.Name, source: Source) {
        var generator = SeededGenerator(seed: 0x5EED_0000 + UInt64(source.rawValue.count * 31 + name.rawValue.count))
        let prefix = Self.garbagePrefix(name)
        let format = Self.format(name)
        var answers = 0
        var garbage = 0
        for _ in 0..<1500 {
            let body = Self.body(source, format: name, using: &generator)
            let result = parseReply(format, host: "api.example.com", status: 200, body: body)
            #expect(HTTPDNSOutcome(result) == HTTPDNSOutcome(
                parseReply(format, host: "api.example.com", status: 200, body: body)))
            switch result {
            case .success(let answer):
                answers += 1
                #expect(!answer.addresses.isEmpty, "empty answer for \(Array(body))")
                if let ttl = answer.ttl { #expect(Self.ttls(name).contains(ttl)) }
            case .failure(let problem) where problem.kind == .garbage:
                garbage += 1
                #expect(problem.detail.hasPrefix(prefix), "\(problem.detail)")
                #expect(problem.detail.hasSuffix("(\(body.count) byte\(body.count == 1 ? "" : "s"))"), "\(problem.detail)")
            case .failure(let problem):
                #expect(!problem.detail.isEmpty)
            }
            // Whatever the body, a failed HTTP status is the service's error.
            let failed = parseReply(format, host: "api.example.com", status: 502, body: body)
            guard case .failure(let problem) = failed, problem.kind == .serviceError else {
                Issue.record("HTTP 502 gave \(failed) for \(Array(body))")
                continue
            }
        }
        // Mutations of good answers must reach both sides, or this test proves little.
        if source == .mutatedRecordings {
            #expect(answers > 0 && garbage > 0, "\(answers) answers, \(garbage) garbage")
        }
    }

    static func body(_ source: Source, format: HTTPDNSSpec.Format.Name, using generator: inout SeededGenerator) -> Data {
        switch source {
        case .randomBytes:
            let count = Int.random(in: 0...200, using: &generator)
            return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case .grammarBytes:
            let count = Int.random(in: 0...120, using: &generator)
            return Data((0..<count).compactMap { _ in alphabet.randomElement(using: &generator) })
        case .mutatedRecordings:
            var bytes = Array(recorded(format).randomElement(using: &generator) ?? Data())
            for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = alphabet.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: index)
                }
            }
            return Data(bytes)
        }
    }

    @Test("deeply nested and huge bodies are refused, not a crash", arguments: formats)
    func hostileBodies(name: HTTPDNSSpec.Format.Name) {
        let format = Self.format(name)
        let nested = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let huge = Data(repeating: UInt8(ascii: "1"), count: 1 << 20)
        for body in [nested, huge] {
            let result = parseReply(format, host: "api.example.com", status: 200, body: body)
            guard case .failure(let problem) = result else {
                Issue.record("accepted \(body.count) bytes: \(result)")
                continue
            }
            #expect(problem.kind == .garbage)
            #expect(problem.detail.hasSuffix("…' (\(body.count) bytes)"))
        }
    }

    @Test("the quote keeps 60 bytes and says how many there were")
    func quoteBoundary() {
        let sixty = Data(repeating: UInt8(ascii: "x"), count: 60)
        #expect(HTTPDNSBodyQuote.quote(sixty) == "'\(String(repeating: "x", count: 60))' (60 bytes)")
        let sixtyOne = sixty + Data("y".utf8)
        #expect(HTTPDNSBodyQuote.quote(sixtyOne) == "'\(String(repeating: "x", count: 60))…' (61 bytes)")
        #expect(HTTPDNSBodyQuote.quote(Data("'\\\t\r".utf8)) == #"'\'\\\t\r' (4 bytes)"#)
        #expect(HTTPDNSBodyQuote.quote(Data([0x7F])) == #"'\x7f' (1 byte)"#)
    }
}
