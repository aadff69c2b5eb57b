import Testing

@testable import RunnerReport
import RunnerResults

/// The reports write a result's name from its pieces (`forEachDisplayNamePiece`) when there are
/// no secrets: joined, the pieces must be `displayName` exactly.
struct DisplayNamePiecesTests {
    private func joinedPieces(of result: ScenarioResult) -> String {
        var joined = ""
        result.forEachDisplayNamePiece { joined += $0 }
        return joined
    }

    @Test func piecesJoinedAreTheDisplayName() {
        var withoutIP = Fixture.passed
        withoutIP.ip = nil
        var flowStep = Fixture.passed
        flowStep.after = [ResultStep(scenario: "log in", strategy: .sniResolve, ip: "203.0.113.10")]
        for result in [Fixture.passed, withoutIP, flowStep, Fixture.hostileResult] {
            #expect(joinedPieces(of: result) == result.displayName)
        }
    }
}
