import NIOCore
import Testing

@testable import RunnerServe

/// `MonitorConnectionState`: each phase's deadline, what a passed deadline does, and what bytes do.
@Suite struct MonitorConnectionStateTests {
    let limits = MonitorConnectionLimits(requestTimeout: .seconds(10), idleTimeout: .seconds(60), maxConnections: 8)
    let request = Array("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    var timedOut: MonitorConnectionState.Expiry { .refuse(MonitorRoutes.timedOut(after: .seconds(10))) }

    @Test func aNewConnectionThatSendsNothingIsClosedSilentlyAtTheRequestTimeout() {
        let state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.phase == .waiting(first: true))
        #expect(state.deadline == at(10))
        #expect(state.expiry(at: at(10) - .nanoseconds(1)) == .notYet)
        // Nothing was asked, so nothing is answered.
        #expect(state.expiry(at: at(10)) == .close)
        #expect(state.expiry(at: at(30)) == .close)
    }

    @Test func anIncompleteFirstRequestGetsA408AtTheRequestTimeoutFromTheOpening() throws {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        // The first byte comes late: the time still runs from the opening, not from it.
        #expect(state.bytesArrived(Array("GET / HT".utf8), at: at(7)) == .forward)
        #expect(state.phase == .reading)
        #expect(state.deadline == at(10))
        #expect(state.expiry(at: at(9.999)) == .notYet)
        let expiry = state.expiry(at: at(10))
        #expect(expiry == timedOut)
        guard case .refuse(let answer) = expiry else {
            Issue.record("no answer at the deadline: \(expiry)")
            return
        }
        #expect(answer.status == 408)
    }

    @Test func tricklingBytesDoNotExtendTheRequestDeadline() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        // About a byte a second: each read is prompt, the request never completes.
        for (index, byte) in "GET /metri".utf8.enumerated() {
            #expect(state.bytesArrived([byte], at: at(Double(index) * 0.99)) == .forward)
            #expect(state.deadline == at(10))
        }
        #expect(state.phase == .reading)
        #expect(state.expiry(at: at(10)) == timedOut)
    }

    @Test func anAnsweredConnectionWaitsTheIdleTimeoutThenIsClosedSilently() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(request, at: at(1)) == .forward)
        state.answering(at: at(2))
        #expect(state.phase == .writing(responses: 1))
        #expect(state.deadline == at(12))
        state.answered(at: at(3))
        #expect(state.phase == .waiting(first: false))
        #expect(state.deadline == at(63))
        #expect(state.expiry(at: at(62)) == .notYet)
        #expect(state.expiry(at: at(63)) == .close)
    }

    @Test func aKeptAliveConnectionsNextRequestGetsAFreshRequestDeadlineFromItsFirstByte() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(request, at: at(1)) == .forward)
        state.answering(at: at(1))
        state.answered(at: at(2))
        // Neither the idle deadline (62) nor the opening's (10): ten seconds from the byte at 50.
        #expect(state.bytesArrived(Array("GET".utf8), at: at(50)) == .forward)
        #expect(state.phase == .reading)
        #expect(state.deadline == at(60))
        #expect(state.bytesArrived(Array(" /metrics".utf8), at: at(59)) == .forward)
        #expect(state.deadline == at(60))
        #expect(state.expiry(at: at(59.5)) == .notYet)
        #expect(state.expiry(at: at(60)) == timedOut)
    }

    @Test func eachRequestOnAKeptAliveConnectionHasItsOwnHeadLimit() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        // Two heads of 10 000 bytes: together over the 16 KiB limit, each well under it.
        let padding = String(repeating: "a", count: 10_000 - "GET / HTTP/1.1\r\nX-Pad: \r\n\r\n".utf8.count)
        let long = Array("GET / HTTP/1.1\r\nX-Pad: \(padding)\r\n\r\n".utf8)
        #expect(long.count == 10_000)
        for second in 0..<3 {
            #expect(state.bytesArrived(long, at: at(Double(second))) == .forward)
            state.answering(at: at(Double(second)))
            state.answered(at: at(Double(second)))
        }
        // And the request line of the next one is checked as a request line.
        #expect(state.bytesArrived(Array("GET /\r\n".utf8), at: at(4)) == .refuse(MonitorRoutes.unsupportedVersion))
    }

    @Test func aPipelinedRequestCutAcrossReadsIsForwarded() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        // The read that ends the first request begins the second; the rest of its head comes later.
        #expect(state.bytesArrived(request + Array("GET /-/healthy HTTP/1.1\r\n".utf8), at: at(1)) == .forward)
        state.answering(at: at(1))
        state.answered(at: at(1))
        // Its header lines are not a request line without a version (this was answered 505).
        #expect(state.bytesArrived(Array("Host: x\r\n".utf8), at: at(2)) == .forward)
        #expect(state.bytesArrived(Array("Accept: */*\r\n\r\n".utf8), at: at(2)) == .forward)
        // And the same when the cut came while the first answer was being written.
        state.answering(at: at(3))
        #expect(state.bytesArrived(Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8), at: at(3)) == .forward)
        state.answered(at: at(3))
        #expect(state.bytesArrived(Array("Accept: */*\r\n\r\n".utf8), at: at(4)) == .forward)
    }

    @Test func anHTTP09RequestIsRefusedWith505() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        let arrival = state.bytesArrived(Array("GET /\r\n".utf8), at: at(1))
        #expect(arrival == .refuse(MonitorRoutes.unsupportedVersion))
        #expect(MonitorRoutes.unsupportedVersion.status == 505)
    }

    @Test func aHeadOverTheLimitIsRefusedWith431() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(Array("GET / HTTP/1.1\r\n".utf8), at: at(1)) == .forward)
        let header = Array("X-Pad: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: MonitorRequestHeadScan.maximumHead)
        #expect(state.bytesArrived(header, at: at(2)) == .refuse(MonitorRoutes.headTooLong))
        #expect(MonitorRoutes.headTooLong.status == 431)
    }

    @Test func aResponseNotWrittenInTimeIsClosedSilently() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(request, at: at(1)) == .forward)
        state.answering(at: at(4))
        #expect(state.deadline == at(14))
        #expect(state.expiry(at: at(13.5)) == .notYet)
        // Not a 408: the answer's head may be out already.
        #expect(state.expiry(at: at(14)) == .close)
    }

    @Test func pipelinedRequestsAreCountedAndEachAnswerGetsTheRequestTimeout() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(request + request, at: at(1)) == .forward)
        state.answering(at: at(1))
        state.answering(at: at(2))
        #expect(state.phase == .writing(responses: 2))
        // The first answer's deadline holds while the second is queued behind it.
        #expect(state.deadline == at(11))
        // More pipelined bytes go to the decoder, which holds them until the answers are out.
        #expect(state.bytesArrived(request, at: at(3)) == .forward)
        #expect(state.phase == .writing(responses: 2))
        state.answered(at: at(5))
        #expect(state.phase == .writing(responses: 1))
        #expect(state.deadline == at(15))
        state.answered(at: at(6))
        #expect(state.phase == .waiting(first: false))
        #expect(state.deadline == at(66))
    }

    @Test func aClosingConnectionDropsWhatComesAndIsClosedAfterTheLinger() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.bytesArrived(Array("GET /\r\n".utf8), at: at(1)) == .refuse(MonitorRoutes.unsupportedVersion))
        state.closing(at: at(1))
        #expect(state.phase == .closing)
        #expect(state.deadline == at(3))
        #expect(state.bytesArrived(request, at: at(2)) == .drop)
        // Nothing moves the linger deadline: not a second close, not a late answer.
        state.closing(at: at(2))
        state.answering(at: at(2))
        state.answered(at: at(2))
        #expect(state.phase == .closing)
        #expect(state.deadline == at(3))
        #expect(state.expiry(at: at(2.5)) == .notYet)
        #expect(state.expiry(at: at(3)) == .close)
    }

    @Test func onlyAConnectionBeingAnsweredIsSparedByTheCap() {
        var state = MonitorConnectionState(openedAt: at(0), limits: limits)
        #expect(state.isEvictable)  // waiting for its first request
        _ = state.bytesArrived(Array("GET".utf8), at: at(1))
        #expect(state.isEvictable)  // half a request
        state.answering(at: at(2))
        #expect(!state.isEvictable)
        state.answered(at: at(3))
        #expect(state.isEvictable)  // idle, kept alive
        state.closing(at: at(4))
        #expect(state.isEvictable)
    }
}
