import Foundation
import RunnerPlan
import Testing

@testable import RunnerEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ranking's connects against real loopback sockets: a listener that counts the connections
/// it accepts, a bound port nobody listens on (refused), a full accept queue (no answer).
@Suite("The ranking's connects", .timeLimit(.minutes(1)))
struct ConnectProbeTests {
    /// A TCP socket bound to 127.0.0.1 on a port of the kernel's choosing; listening (with this
    /// backlog) or only bound, which holds the port so connects to it are refused.
    final class LoopbackPort {
        let descriptor: Int32
        let port: Int

        init(listenBacklog backlog: Int32?) throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0)
            if let backlog { try #require(listen(descriptor, backlog) == 0) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            try #require(named == 0)
            self.descriptor = descriptor
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// Accepts (and closes) every connection waiting in the queue; how many there were.
        func acceptWaiting() -> Int {
            var count = 0
            while case let client = accept(descriptor, nil, nil), client >= 0 {
                close(client)
                count += 1
            }
            return count
        }

        deinit { close(descriptor) }
    }

    static let loopback = IPAddress("127.0.0.1")

    @Test("a listening port connects, a closed one is refused at once; twice in a cycle connects once")
    func liveRefusedAndOnce() throws {
        let listener = try LoopbackPort(listenBacklog: 16)
        let closed = try LoopbackPort(listenBacklog: nil)
        let address = try #require(Self.loopback)
        let live = ConnectTarget(address: address, port: listener.port)
        let refused = ConnectTarget(address: address, port: closed.port)
        let probe = ConnectProbe(timeout: .seconds(5))
        var cache = ConnectProbeCache()

        let started = ContinuousClock.now
        let first = probe.measure([live, refused, live], cache: &cache)
        #expect(started.duration(to: .now) < .seconds(2))
        guard case .connected(let duration) = first[live] else {
            Issue.record("the listening port did not connect: \(String(describing: first[live]))")
            return
        }
        #expect(duration < .seconds(2))
        #expect(first[refused] == .failed(ConnectFailure(code: ECONNREFUSED, reason: "connection refused")))

        let again = probe.measure([refused, live], cache: &cache)
        #expect(again == first)
        #expect(cache.connectsMade == 2)
        #expect(listener.acceptWaiting() == 1)
    }

    @Test("30 populations ranking the same 50 (address, port)s connect once to each")
    func populationsShareConnects() throws {
        let listener = try LoopbackPort(listenBacklog: 64)
        let closed = try LoopbackPort(listenBacklog: nil)
        let address = try #require(Self.loopback)
        // The listener, and 49 refused: the bound port on 127.0.0.1, and on 127.0.0.3 to .50
        // nothing listens on the listener's own port (it is bound to 127.0.0.1 only).
        var targets = [ConnectTarget(address: address, port: listener.port), ConnectTarget(address: address, port: closed.port)]
        for last in 3...50 {
            targets.append(ConnectTarget(address: try #require(IPAddress("127.0.0.\(last)")), port: listener.port))
        }
        let probe = ConnectProbe(timeout: .seconds(5), maximumInFlight: 10)
        var cache = ConnectProbeCache()
        for population in 0..<30 {
            let outcomes = probe.measure(targets.shuffled(), cache: &cache)
            #expect(outcomes.count == 50, "population \(population)")
        }
        #expect(cache.connectsMade == 50)
        #expect(listener.acceptWaiting() == 1)
    }

    @Test("a connect nobody answers fails at the timeout")
    func timeout() throws {
        // Backlog 0 holds one connection in the accept queue; the kernel drops the next SYN.
        let listener = try LoopbackPort(listenBacklog: 0)
        let address = try #require(Self.loopback)
        var cache = ConnectProbeCache()
        let filler = ConnectProbe(timeout: .seconds(2))
        _ = filler.measure([ConnectTarget(address: address, port: listener.port)], cache: &cache)

        let target = ConnectTarget(address: address, port: listener.port)
        var fresh = ConnectProbeCache()
        let probe = ConnectProbe(timeout: .milliseconds(300))
        let started = ContinuousClock.now
        let outcome = probe.measure([target], cache: &fresh)[target]
        let waited = started.duration(to: .now)
        #expect(outcome == .failed(ConnectFailure(code: ETIMEDOUT, reason: "no connect within 300ms")))
        #expect(waited >= .milliseconds(300) && waited < .seconds(2))
    }

    @Test("SDKPick ranks by the probe's connects: the live address before a refused one")
    func probeFeedsPick() throws {
        let listener = try LoopbackPort(listenBacklog: 16)
        let closedAddress = try #require(IPAddress("127.0.0.2"))
        let liveAddress = try #require(Self.loopback)
        var profile = SDKProfile(kind: .alibabaIOS)
        profile.ranking = SDKProfile.Kind.alibabaIOS.defaultRanking(port: listener.port)
        let ranking = try #require(profile.ranking)
        var cache = ConnectProbeCache()
        let connects = ConnectProbe(ranking: ranking).measure([closedAddress, liveAddress], port: ranking.port, cache: &cache)
        let pick = SDKPick(answer: [closedAddress, liveAddress], profile: profile, connects: connects)
        #expect(pick.order == [liveAddress, closedAddress])
        #expect(pick.picked.map(\.address) == [liveAddress])
        guard case .onlyLiveAddress = pick.picked.first?.reason else {
            Issue.record("picked for another reason: \(pick.picked)")
            return
        }
    }
}

extension ConnectProbeTests {
    @Test("one cycle shared by 30 lookups on their own threads connects once to each (address, port)")
    func cycleSharedAcrossThreads() async throws {
        let listener = try LoopbackPort(listenBacklog: 64)
        let closed = try LoopbackPort(listenBacklog: nil)
        let address = try #require(Self.loopback)
        var addresses = [address]
        for last in 3...50 { addresses.append(try #require(IPAddress("127.0.0.\(last)"))) }
        let cycle = ConnectProbeCycle()
        let probe = ConnectProbe(timeout: .seconds(5))
        let port = listener.port
        let outcomes = await withTaskGroup(of: [IPAddress: ConnectOutcome].self) { group in
            for _ in 0..<30 {
                let shuffled = addresses.shuffled()
                group.addTask { cycle.measure(shuffled, port: port, probe: probe) }
            }
            var all: [[IPAddress: ConnectOutcome]] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 30 && outcomes.allSatisfy { $0.count == 49 })
        #expect(Set(outcomes.map { $0[address].map { if case .connected = $0 { true } else { false } } }) == [true])
        #expect(cycle.connectsMade == 49)
        #expect(listener.acceptWaiting() == 1)
        withExtendedLifetime(closed) {}
    }
}
