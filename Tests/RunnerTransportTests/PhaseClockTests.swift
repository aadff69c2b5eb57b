import Testing

@testable import RunnerTransport
import RunnerVocabulary

@Suite("Phase timings from libcurl's cumulative clock", .timeLimit(.minutes(3)))
struct PhaseClockTests {
    @Test("a new TLS connection: each phase is its own share of the time")
    func freshTLS() {
        let clock = PhaseClock(nameLookup: 1_000, connect: 3_500, appConnect: 10_000, startTransfer: 12_000, total: 12_500)
        let phases = clock.phases(reusedConnection: false)
        #expect(phases.resolve == .microseconds(1000))
        #expect(phases.connect == .microseconds(2500))
        #expect(phases.tls == .microseconds(6500))
        #expect(phases.firstByte == .microseconds(12000))
        #expect(phases.total == .microseconds(12500))
    }

    @Test("plain http has no TLS phase")
    func plainHTTP() {
        let phases = PhaseClock(nameLookup: 20, connect: 120, appConnect: 0, startTransfer: 900, total: 950)
            .phases(reusedConnection: false)
        #expect(phases.tls == nil)
        #expect(phases.connect == .microseconds(100))
        #expect(phases.firstByte == .microseconds(900))
    }

    @Test("a reused connection reports no connect and no handshake")
    func reused() {
        // What curl 7.88 reports on reuse: connect and appconnect 0.
        let phases = PhaseClock(nameLookup: 14, connect: 0, appConnect: 0, startTransfer: 453, total: 500)
            .phases(reusedConnection: true)
        #expect(phases.connect == nil)
        #expect(phases.tls == nil)
        #expect(phases.firstByte == .microseconds(453))
        // Even if a libcurl version reported an appconnect value on reuse, no handshake happened.
        let odd = PhaseClock(nameLookup: 14, connect: 30, appConnect: 40, startTransfer: 453, total: 500)
            .phases(reusedConnection: true)
        #expect(odd.tls == nil)
    }

    @Test("a failed transfer only has what was reached")
    func failed() {
        let refused = PhaseClock(nameLookup: 0, connect: 0, appConnect: 0, startTransfer: 0, total: 100)
            .phases(reusedConnection: false)
        #expect(refused == Timings(resolve: nil, connect: nil, tls: nil, firstByte: nil, total: .microseconds(100)))
        let nothing = PhaseClock().phases(reusedConnection: false)
        #expect(nothing == Timings())
    }

    @Test("clock skew never gives a negative phase")
    func neverNegative() {
        let phases = PhaseClock(nameLookup: 500, connect: 400, appConnect: 300, startTransfer: 600, total: 700)
            .phases(reusedConnection: false)
        #expect(phases.connect == .zero)
        #expect(phases.tls == .zero)
    }
}
