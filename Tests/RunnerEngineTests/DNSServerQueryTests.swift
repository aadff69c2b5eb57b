import Foundation
import LabTestSupport
import PlanFixtures
import RunnerHTTPDNS
import RunnerLab
import RunnerPlan
import Testing

/// Asking a DNS server directly (`resolver: IP:PORT`), against unbound — a DNS server nobody
/// here wrote — serving the lab's zone over UDP: the client built on libresolv reads real
/// answers, follows a CNAME, and tells no such name, a refusal, a closed port and silence apart.
@Suite("A DNS server asked directly, against unbound", .timeLimit(.minutes(2)))
struct DNSServerQueryTests {
    static let unbound = Task { try await UnboundDoH.start(deadline: .seconds(30)) }

    static func lookup(
        _ host: String, _ family: IPAddress.Family = .v4, port: Int? = nil, timeout: Duration = .seconds(5)
    ) async throws -> Result<HTTPDNSAnswer, DNSServerProblem> {
        try await reply(host, family, port: port, timeout: timeout).answer
    }

    static func reply(
        _ host: String, _ family: IPAddress.Family = .v4, port: Int? = nil, timeout: Duration = .seconds(5)
    ) async throws -> DNSServerReply {
        let server = try await unbound.value
        let address = try #require(IPAddress(UnboundDoH.listenAddress))
        let chosen = port ?? server.dnsPort
        return try await offPool {
            DNSServerQuery.lookup(host: host, family: family, server: address, port: chosen, timeout: timeout)
        }
    }

    @Test("A and AAAA records, with their TTL; a CNAME inside the answer is followed")
    func answers() async throws {
        #expect(try await Self.lookup(UnboundDoH.Names.api) == .success(HTTPDNSAnswer(
            addresses: [try #require(IPAddress(UnboundDoH.Names.apiIPv4))], ttl: 300)))
        #expect(try await Self.lookup(UnboundDoH.Names.api, .v6) == .success(HTTPDNSAnswer(
            addresses: [try #require(IPAddress(UnboundDoH.Names.apiIPv6))], ttl: 300)))
        var aliased = HTTPDNSAnswer(addresses: [try #require(IPAddress(UnboundDoH.Names.apiIPv4))], ttl: 300)
        aliased.aliases = [UnboundDoH.Names.api]
        #expect(try await Self.reply(UnboundDoH.Names.alias) == DNSServerReply(rcode: "NOERROR", answer: .success(aliased)))
        let server = try await Self.unbound.value
        #expect(server.queriesLogged(UnboundDoH.Names.alias, type: "A") >= 1, "the answer came from unbound")
    }

    @Test("no such name, a refused zone, a closed port and a server that never answers are told apart")
    func failures() async throws {
        let missing = try await Self.reply(UnboundDoH.Names.missing)
        #expect(missing.answer.failureText == "no such name (NXDOMAIN)", "\(missing)")
        #expect(missing.rcode == "NXDOMAIN")
        let refused = try await Self.lookup(UnboundDoH.Names.refused)
        #expect(refused.failureText == "DNS error REFUSED (RCODE 5)", "\(refused)")

        // A UDP port with nobody behind it: the kernel says so at once.
        let (closedSocket, closedPort) = try Self.udpSocket()
        close(closedSocket)
        let closed = try await Self.lookup(UnboundDoH.Names.api, port: closedPort)
        #expect(closed.failureText == "connection refused", "\(closed)")

        // A socket that takes the query and never answers: one try of the timeout, then nothing.
        let (silent, silentPort) = try Self.udpSocket()
        defer { close(silent) }
        let started = ContinuousClock.now
        let quiet = try await Self.lookup(UnboundDoH.Names.api, port: silentPort, timeout: .seconds(1))
        #expect(quiet.failureText == "no answer in time", "\(quiet)")
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}

extension DNSServerQueryTests {
    /// A UDP socket bound to a free port of the listen address, and the port.
    static func udpSocket() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(UnboundDoH.listenAddress)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw DNSServerProblem.exchange(.other("could not bind a UDP socket"))
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

extension Result where Failure == DNSServerProblem {
    /// The problem's text, nil for an answer.
    fileprivate var failureText: String? {
        if case .failure(let problem) = self { return problem.description }
        return nil
    }

}

/// The lab's own resolvers, for what unbound will not do on demand: truncate, answer with
/// another ID, send a compression loop.
@Suite("A DNS server asked directly, against the lab's resolver", .timeLimit(.minutes(2)))
struct LabResolverQueryTests {
    /// The lab's own resolver, for what unbound will not do on demand.
    static func labReply(_ host: String, timeout: Duration = .seconds(5)) async throws -> DNSServerReply {
        let lab = try await SharedLab.get()
        let address = try #require(IPAddress(LabResolver.honest.address))
        return try await offPool {
            DNSServerQuery.lookup(host: host, family: .v4, server: address, port: lab.dnsPort, timeout: timeout)
        }
    }

    @Test("a truncated UDP answer is asked again over TCP, and the TCP answer is used")
    func truncationFallsBackToTCP() async throws {
        let reply = try await Self.labReply("truncated.lab.test")
        #expect(try reply.answer.get().addresses == [try #require(IPAddress(LabAddress.primary))], "\(reply)")
    }

    @Test("a reply with another ID is dropped, and the right one that follows is used")
    func aMismatchedIDIsIgnored() async throws {
        let reply = try await Self.labReply("mismatch.lab.test")
        #expect(try reply.answer.get().addresses == [try #require(IPAddress(LabAddress.primary))], "\(reply)")
    }

    @Test("an answer whose name is a compression loop is malformed, not a hang or a crash")
    func aCompressionLoopIsMalformed() async throws {
        // Timed from a running lab: its start in a parallel run's first seconds is not the lookup's.
        _ = try await SharedLab.get()
        let started = ContinuousClock.now
        let reply = try await Self.labReply("loop.lab.test")
        #expect(reply.answer.failureText?.hasPrefix("not a DNS message") == true, "\(reply)")
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test("a server on an IPv6 address (unbound on ::1)")
    func anIPv6Server() async throws {
        let server = try await DNSServerQueryTests.unbound.value
        let address = try #require(IPAddress(LabAddress.ipv6))
        let reply = try await offPool {
            DNSServerQuery.lookup(
                host: UnboundDoH.Names.api, family: .v4, server: address, port: server.dnsPort, timeout: .seconds(5))
        }
        #expect(try reply.answer.get().addresses == [try #require(IPAddress(UnboundDoH.Names.apiIPv4))], "\(reply)")
    }
}
