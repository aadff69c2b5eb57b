import Testing

@testable import RunnerServe

/// `MonitorConnectionLimits`: the linger after a refusal is short, and never longer than a request may take.
@Suite struct MonitorConnectionLimitsTests {
    @Test(arguments: [
        (Duration.seconds(10), Duration.seconds(2)),
        (.seconds(2), .seconds(2)),
        (.milliseconds(500), .milliseconds(500)),
    ])
    func lingerIsTheRequestTimeoutCappedAtTwoSeconds(requestTimeout: Duration, linger: Duration) {
        let limits = MonitorConnectionLimits(requestTimeout: requestTimeout, idleTimeout: .seconds(60), maxConnections: 8)
        #expect(limits.linger == linger)
    }
}
