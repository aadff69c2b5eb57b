#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

@testable import RunnerServe

/// `DescriptorBudget`: descriptors kept for the cycles, the connection cap that fits beside them, and the warning when it is lowered.
@Suite struct DescriptorBudgetTests {
    @Test(arguments: [(0, 128), (1, 132), (8, 160), (64, 384)])
    func reserveIsFourPerJobAndAHundredAndTwentyEight(jobs: Int, reserve: Int) {
        #expect(DescriptorBudget.reserve(jobs: jobs) == reserve)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var requested: Int
        var softLimit: UInt64
        var reserve: Int
        var cap: Int
        var testDescription: String { "\(requested) under \(softLimit) less \(reserve) → \(cap)" }
    }

    @Test(arguments: [
        Case(requested: 256, softLimit: 1_048_576, reserve: 160, cap: 256),
        Case(requested: 256, softLimit: 416, reserve: 160, cap: 256),
        Case(requested: 256, softLimit: 415, reserve: 160, cap: 255),
        Case(requested: 512, softLimit: 256, reserve: 160, cap: 96),
        // No room at all: one still, for the scraper.
        Case(requested: 256, softLimit: 160, reserve: 160, cap: 1),
        Case(requested: 256, softLimit: 100, reserve: 160, cap: 1),
        Case(requested: 256, softLimit: .max, reserve: 128, cap: 256),
        Case(requested: 10, softLimit: 50, reserve: -5, cap: 10),
    ])
    func capIsTheRequestedOrWhatFitsBesideTheReserve(_ test: Case) {
        #expect(
            DescriptorBudget.connectionCap(requested: test.requested, softLimit: test.softLimit, reserve: test.reserve)
                == test.cap)
    }

    @Test func noWarningWhenTheCapIsAsRequested() {
        let budget = DescriptorBudget(softLimit: 1024, hardLimit: 1024, raiseFailure: nil)
        #expect(budget.warning(requested: 256, cap: 256, jobs: 8) == nil)
    }

    @Test func warningNamesTheLimitTheReserveAndTheRemedy() {
        let budget = DescriptorBudget(softLimit: 256, hardLimit: 256, raiseFailure: nil)
        let cap = DescriptorBudget.connectionCap(requested: 512, softLimit: 256, reserve: DescriptorBudget.reserve(jobs: 8))
        #expect(
            budget.warning(requested: 512, cap: cap, jobs: 8)
                == "serve: warning: --max-connections 512 lowered to 96: the descriptor limit is 256 and 160 are kept for the cycles (4 × --jobs 8 + 128); raise it (LimitNOFILE=, ulimit -n) to allow more"
        )
    }

    @Test func warningSaysWhyTheLimitWasNotRaised() {
        let budget = DescriptorBudget(softLimit: 256, hardLimit: 4096, raiseFailure: EPERM)
        #expect(
            budget.warning(requested: 512, cap: 96, jobs: 8)
                == "serve: warning: --max-connections 512 lowered to 96: the descriptor limit is 256 (raising it to the hard limit 4096 failed: Operation not permitted) and 160 are kept for the cycles (4 × --jobs 8 + 128); raise it (LimitNOFILE=, ulimit -n) to allow more"
        )
    }
}
