import Foundation
import PlanFixtures
import RunnerPlan
import Testing

@Suite("Malformed plans")
struct MalformedPlanTests {
    @Test("each malformed plan gives exactly its one error", arguments: malformedPlans)
    func malformedPlanError(_ plan: MalformedPlan) throws {
        let workspace = try PlanWorkspace()
        let (path, expected) = try plan.write(into: workspace)
        let errors = loadErrors(path, environment: ["HOME": "/root"])
        #expect(errors.map(\.description) == [expected])
    }

    @Test("there are at least thirty malformed plans")
    func coverage() {
        #expect(malformedPlans.count >= 30)
        #expect(Set(malformedPlans.map(\.name)).count == malformedPlans.count)
    }
}
