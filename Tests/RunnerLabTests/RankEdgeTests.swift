import Foundation
import PlanFixtures
import RunnerLab
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How one TCP connect ended, timed as a ranking connect is: a non-blocking socket, `poll` with a
/// deadline, nothing sent.
struct TimedConnect: CustomStringConvertible {
    /// nil: connected; else the errno (ETIMEDOUT when the deadline passed).
    let error: Int32?
    let seconds: Double

    var description: String {
        String(format: "%.3f s", seconds) + (error.map { ", " + String(cString: strerror($0)) } ?? "")
    }

    /// A connect to `address`:`port` (IPv4), given up after `deadline`.
    static func measure(_ address: String, _ port: Int, deadline: Duration = .seconds(4)) async throws -> TimedConnect {
        try await offPool { measureNow(address, port, deadline: deadline) }
    }

    private static func measureNow(_ address: String, _ port: Int, deadline: Duration) -> TimedConnect {
        let clock = ContinuousClock()
        let started = clock.now
        func ended(_ error: Int32?) -> TimedConnect {
            let elapsed = started.duration(to: clock.now)
            return TimedConnect(
                error: error, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return ended(errno) }
        defer { close(descriptor) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &target.sin_addr)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result == 0 { return ended(nil) }
        guard errno == EINPROGRESS else { return ended(errno) }
        while true {
            let left = started.duration(to: clock.now)
            let remaining = deadline - left
            guard remaining > .zero else { return ended(ETIMEDOUT) }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptors, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            return ended(error == 0 ? nil : error)
        }
    }
}

/// The three edges an SDK's ranking connects tell apart (`Lab.rankPort`): the fast edge connects at
/// once, the slow one in about a second (its first SYN dropped, the client's resend taken), the
/// dead one refuses at once, on every port. Each timing test has a lab of its own: the slow edge
/// lets in whatever arrives while it waits for a resend.
@Suite("Lab: rank edges", .timeLimit(.minutes(3)))
struct RankEdgeTests {
    static let runs = 6

    @Test("the fast edge's rank port connects in under 100 ms, every time")
    func fast() async throws {
        try await withLab { lab in
            var times: [Double] = []
            for _ in 0..<Self.runs {
                let connect = try await TimedConnect.measure(LabAddress.fastRankEdge, lab.rankPort)
                #expect(connect.error == nil && connect.seconds < 0.1, "\(connect)")
                times.append(connect.seconds)
            }
            print("fast rank edge: min \(times.min()!) s, max \(times.max()!) s over \(Self.runs)")
            try #require(await eventually { lab.rankConnectsAccepted(on: LabAddress.fastRankEdge) == Self.runs })
            #expect(lab.rankConnectsHeldBack == 0)
        }
    }

    @Test("the slow edge's rank port connects in 0.5 to 3 s (about 1 s), every time in a row")
    func slow() async throws {
        try await withLab { lab in
            var times: [Double] = []
            for run in 0..<Self.runs {
                let connect = try await TimedConnect.measure(LabAddress.slowRankEdge, lab.rankPort)
                #expect(connect.error == nil && (0.5...3).contains(connect.seconds), "run \(run): \(connect)")
                times.append(connect.seconds)
                // A ranking's next connect follows another lookup: a few milliseconds at least.
                try await Task.sleep(for: .milliseconds(20))
            }
            print("slow rank edge: min \(times.min()!) s, max \(times.max()!) s over \(Self.runs)")
            #expect(lab.rankConnectsAccepted(on: LabAddress.slowRankEdge) == Self.runs)
            #expect(lab.rankConnectsHeldBack == Self.runs)
        }
    }

    @Test("connects at once to all three, as a ranking with ten in flight makes them: dead, fast, then slow")
    func together() async throws {
        try await withLab { lab in
            for _ in 0..<2 {
                async let dead = TimedConnect.measure(LabAddress.deadRankEdge, lab.rankPort)
                async let slow = TimedConnect.measure(LabAddress.slowRankEdge, lab.rankPort)
                async let slowAgain = TimedConnect.measure(LabAddress.slowRankEdge, lab.rankPort)
                async let fast = TimedConnect.measure(LabAddress.fastRankEdge, lab.rankPort)
                let (deadConnect, slowConnect, slowAgainConnect, fastConnect) = try await (dead, slow, slowAgain, fast)
                #expect(deadConnect.error == ECONNREFUSED && deadConnect.seconds < 0.1, "\(deadConnect)")
                #expect(fastConnect.error == nil && fastConnect.seconds < 0.1, "\(fastConnect)")
                // Two connects waiting for the slow edge at once both get in with their resend.
                for connect in [slowConnect, slowAgainConnect] {
                    #expect(connect.error == nil && (0.5...3).contains(connect.seconds), "\(connect)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    @Test("the dead edge refuses at once on the rank, HTTP and HTTPS ports; curl cannot reach it over HTTPS")
    func dead() async throws {
        let lab = try await StatelessLab.get()
        for port in [lab.rankPort, lab.httpPort, lab.httpsPort] {
            let connect = try await TimedConnect.measure(LabAddress.deadRankEdge, port)
            #expect(connect.error == ECONNREFUSED && connect.seconds < 0.1, "port \(port): \(connect)")
        }
        let https = try await Command.curl([
            "--cacert", lab.caFile, "--resolve", "rank.lab.test:\(lab.httpsPort):\(LabAddress.deadRankEdge)",
            "https://rank.lab.test:\(lab.httpsPort)/echo",
        ])
        #expect(https.exitCode == 7, "curl should fail to connect: \(https.errorOutput)")
        #expect(lab.rankConnectsAccepted(on: LabAddress.deadRankEdge) == 0)
    }

    @Test("nothing else listens on the rank port", arguments: [LabAddress.primary, LabAddress.replica, LabAddress.deadRankEdge])
    func onlyTheRankEdges(_ address: String) async throws {
        let lab = try await StatelessLab.get()
        let connect = try await TimedConnect.measure(address, lab.rankPort)
        #expect(connect.error == ECONNREFUSED, "\(connect)")
    }

    @Test("the fast and slow edges serve HTTPS for rank.lab.test and api.lab.test with the lab's CA, and plain HTTP",
        arguments: [LabAddress.fastRankEdge, LabAddress.slowRankEdge])
    func serveHTTPS(_ address: String) async throws {
        let lab = try await StatelessLab.get()
        for host in ["rank.lab.test", "api.lab.test", "fallback.lab.test"] {
            let result = try await Command.curl([
                "--cacert", lab.caFile, "--resolve", "\(host):\(lab.httpsPort):\(address)",
                "https://\(host):\(lab.httpsPort)/echo",
            ])
            #expect(result.exitCode == 0, "\(host) at \(address): \(result.errorOutput)")
            let echo = try result.jsonObject()
            #expect(echo["sni"] as? String == host, "\(echo)")
            #expect(echo["local_address"] as? String == address, "\(echo)")
        }
        let plain = try await Command.curl(["http://\(address):\(lab.httpPort)/json"])
        #expect(plain.exitCode == 0, "\(plain.errorOutput)")
    }
}
