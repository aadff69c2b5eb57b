import Foundation
import LabTestSupport
import Testing

@testable import RunnerEngine

/// The run's one clock (`RunOptions.clock`) is where every time the engine keeps comes from:
/// handed a clock a test moves by hand, a run's dates and durations are that clock's, exactly,
/// whatever the real time did meanwhile. No test here sleeps.
@Suite("The run's clock", .timeLimit(.minutes(2)))
struct RunClockTests {
    static let date = Date(timeIntervalSince1970: 1_795_251_600)

    /// A lookup by the machine's resolver lasts what its clock says: here each reading is 7 ms
    /// after the one before (a numeric host: getaddrinfo asks no server).
    @Test func aSystemLookupIsTimedOnTheClockItIsHanded() throws {
        let manual = ManualClock()
        let stepping = MonotonicClock {
            manual.advance(by: .milliseconds(7))
            return manual.now()
        }
        let resolution = try SystemResolver.resolve(host: "127.0.0.1", clock: stepping).get()
        #expect(resolution.lookupTime == .milliseconds(7))
        #expect(resolution.dns?.questions.map(\.duration) == [.milliseconds(7)])
    }

    /// Two results one after the other, the clock moved 3 s by hand after each is handed over:
    /// the run and its suite start at the wall clock's date, the suite lasts until its last
    /// result was handed over (3 s), the run until it ended (6 s), and each result, during
    /// which the clock stood still, lasts nothing.
    @Test func aRunsDatesAndDurationsAreItsClocks() async throws {
        let manual = ManualClock()
        let run = try await LabRun.make().run(
            """
            version: 1
            name: clock
            defaults:
              domains: lab
              timeout: 5s
            domains:
              lab:
                static: {api.lab.test: [127.0.0.2]}
            scenarios:
              - name: first
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
              - name: second
                strategy: header-only
                request: {url: "http://api.lab.test:{{http}}/echo"}
            """,
            jobs: 1, clock: manual.clock, wallClock: WallClock { Self.date },
            afterEachResult: { manual.advance(by: .seconds(3)) })
        #expect(run.all.count == 2)
        #expect(run.all.allSatisfy { $0.passed }, "\(run.all.map(\.summary))")
        #expect(run.result.startedAt == Self.date)
        #expect(run.suites.map(\.startedAt) == [Self.date])
        #expect(run.suites.map(\.duration) == [.seconds(3)])
        #expect(run.duration == .seconds(6))
        #expect(run.all.map(\.duration) == [.zero, .zero])
    }
}
