import Foundation
import PlanFixtures
import Testing

@testable import RunnerLab

#if canImport(Glibc)
import Glibc
#endif

/// `rank.lab.test` and `fallback.lab.test` in the signed and wire formats and from the lab's DNS
/// servers (the template formats' exact bodies are among `HTTPDNSCase.all`): the rank edges dead,
/// slow, fast and ::1; `fallback.lab.test` no record by HTTPDNS, the primary and replica (and ::1)
/// from the resolvers.
@Suite("Lab: rank and fallback answers", .timeLimit(.minutes(3)))
struct RankAnswerTests {
    static let rankOrder = [LabAddress.deadRankEdge, LabAddress.slowRankEdge, LabAddress.fastRankEdge]

    /// A DNS query for `name` of `type`, ID `id`, RD set.
    static func query(_ name: String, type: UInt16, id: UInt16 = 0x4646) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        for label in name.split(separator: ".") {
            bytes.append(UInt8(label.utf8.count))
            bytes += Array(label.utf8)
        }
        return bytes + [0, UInt8(type >> 8), UInt8(type & 0xFF), 0, 1]
    }

    static func a(_ owner: String, _ addresses: [String], ttl: Int = 60) -> [DNSReply.Record] {
        addresses.map { DNSReply.Record(owner: owner, ttl: ttl, data: .a($0)) }
    }

    static func aaaa(_ owner: String, _ addresses: [String], ttl: Int = 60) -> [DNSReply.Record] {
        addresses.map { DNSReply.Record(owner: owner, ttl: ttl, data: .aaaa($0)) }
    }

    /// One UDP exchange with the lab's resolver at `address`.
    static func ask(_ message: [UInt8], at address: String, port: Int) async throws -> DNSResponse {
        let reply = try await offPool { () throws -> [UInt8] in
            let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw CommandFailure(description: "socket: \(errno)") }
            defer { close(descriptor) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, address, &target.sin_addr)
            let sent = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, message, message.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard sent == message.count else { throw CommandFailure(description: "sendto: \(errno)") }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let received = recv(descriptor, &buffer, buffer.count, 0)
            guard received > 0 else { throw CommandFailure(description: "no answer: \(errno)") }
            return Array(buffer[..<received])
        }
        return try LDNSCodec.response(from: reply)
    }

    @Test("the honest and lying resolvers answer rank.lab.test and fallback.lab.test, A and AAAA",
        arguments: [LabResolver.honest, LabResolver.lying])
    func resolvers(_ resolver: LabResolver) async throws {
        let lab = try await StatelessLab.get()
        let cases: [(String, UInt16, [DNSReply.Record])] = [
            ("fallback.lab.test", 1, Self.a("fallback.lab.test.", [LabAddress.primary, LabAddress.replica])),
            ("fallback.lab.test", 28, Self.aaaa("fallback.lab.test.", [LabAddress.ipv6])),
            ("rank.lab.test", 1, Self.a("rank.lab.test.", Self.rankOrder)),
            ("rank.lab.test", 28, Self.aaaa("rank.lab.test.", [LabAddress.ipv6])),
        ]
        for (name, type, answers) in cases {
            let response = try await Self.ask(Self.query(name, type: type), at: resolver.address, port: lab.dnsPort)
            #expect(response.reply.responseCode == .noError, "\(name) \(type)")
            #expect(response.reply.answers == answers, "\(name) \(type): \(response.reply.answers)")
        }
    }

    @Test("DNS over HTTPS (wire format): rank.lab.test dead, slow, fast and ::1; fallback.lab.test NOERROR, no answers")
    func dohWire() async throws {
        let lab = try await StatelessLab.get()
        let cases: [(String, UInt16, [DNSReply.Record])] = [
            ("rank.lab.test", 1, Self.a("rank.lab.test.", Self.rankOrder)),
            ("rank.lab.test", 28, Self.aaaa("rank.lab.test.", [LabAddress.ipv6])),
            ("fallback.lab.test", 1, []),
            ("fallback.lab.test", 28, []),
        ]
        for (name, type, answers) in cases {
            let response = try DoHWireTests.reply(try await DoHWireTests.post(lab, Self.query(name, type: type)), name)
            #expect(response.reply.responseCode == .noError, "\(name) \(type)")
            #expect(response.reply.answers == answers, "\(name) \(type): \(response.reply.answers)")
        }
    }

    @Test("Volcengine: rank.lab.test dead, slow, fast and ::1, per population too; fallback.lab.test empty lists")
    func volcengine() async throws {
        let lab = try await StatelessLab.get()
        let cases: [(String, String)] = [
            (try await VolcengineTests.signedNow(domain: "rank.lab.test"),
             #"{"data":{"ipv4":["127.0.0.17","127.0.0.16","127.0.0.15"],"ipv6":["::1"],"ttl":60}}"#),
            (try await VolcengineTests.signedNow(domain: "rank.lab.test", ip: "123.112.4.4"),
             #"{"data":{"ipv4":["127.0.0.17","127.0.0.16","127.0.0.15"],"ipv6":["::1"],"ttl":120}}"#),
            (try await VolcengineTests.signedNow(domain: "rank.lab.test", ip: "120.196.4.4"),
             #"{"data":{"ipv4":["127.0.0.16","127.0.0.15","127.0.0.17"],"ipv6":["::1"],"ttl":120}}"#),
            (try await VolcengineTests.signedNow(domain: "fallback.lab.test"), #"{"data":{"ipv4":[],"ipv6":[],"ttl":60}}"#),
        ]
        for (query, body) in cases {
            let result = try await Command.curl(["--dump-header", "/dev/stderr", VolcengineTests.url(lab, query)])
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(query): \(result.errorOutput)")
            #expect(result.text == body, "\(query)")
        }
    }

    @Test("Alibaba /v2/d: rank.lab.test dead, slow, fast and ::1, per population too; fallback.lab.test DomainNotFound")
    func alibabaV2() async throws {
        let lab = try await StatelessLab.get()
        let exp = Int(Date().timeIntervalSince1970) + 600
        func url(_ host: String, cip: String? = nil) -> String {
            var pairs = [("dn", host), ("exp", String(exp)), ("id", LabDNS.account), ("m", "0"), ("q", "4,6"), ("v", "1.0")]
            if let cip { pairs.insert(("cip", cip), at: 0) }
            let signed = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let signature = AlibabaV2Endpoint.signature(signed, secret: LabDNS.alibabaV2Secret)
            return "http://\(LabAddress.primary):\(lab.httpPort)/v2/d?\(signed)&s=\(signature)"
        }
        let cases: [(String, String)] = [
            (url("rank.lab.test"),
             #"{"code":"success","mode":"0","data":{"answers":[{"dn":"rank.lab.test","v4":{"ips":["127.0.0.17","127.0.0.16","127.0.0.15"],"ttl":60},"v6":{"ips":["::1"],"ttl":60}}]}}"#),
            (url("rank.lab.test", cip: "101.80.9.9"),
             #"{"code":"success","mode":"0","data":{"answers":[{"dn":"rank.lab.test","v4":{"ips":["127.0.0.15","127.0.0.17","127.0.0.16"],"ttl":120},"v6":{"ips":["::1"],"ttl":120}}]}}"#),
            (url("fallback.lab.test"),
             #"{"code":"success","mode":"0","data":{"answers":[{"dn":"fallback.lab.test","v4":{"ips":[],"ttl":60,"no_ip_code":"DomainNotFound"},"v6":{"ips":[],"ttl":60,"no_ip_code":"DomainNotFound"}}]}}"#),
        ]
        for (url, body) in cases {
            let result = try await Command.curl(["--dump-header", "/dev/stderr", url])
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(url): \(result.errorOutput)")
            #expect(result.text == body, "\(url)")
        }
    }

    @Test("every population has the three rank edges and ::1, in an order of its own, the dead edge first for some")
    func populations() {
        let orders = LabDNS.populations.compactMap { $0.records["rank.lab.test"] }
        #expect(orders.count == LabDNS.populations.count)
        for record in orders {
            #expect(Set(record.ipv4) == Set(Self.rankOrder) && record.ipv4.count == 3, "\(record)")
            #expect(record.ipv6 == [LabAddress.ipv6])
        }
        #expect(Set(orders.map(\.ipv4)).count == orders.count, "each population its own order")
        #expect(orders.contains { $0.ipv4.first == LabAddress.deadRankEdge })
        #expect(LabDNS.records["rank.lab.test"]?.ipv4 == Self.rankOrder)
    }
}
