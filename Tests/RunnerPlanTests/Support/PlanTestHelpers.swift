import Foundation
import PlanFixtures
import RunnerPlan

/// Loads `path` and returns the errors it throws (empty when the plan is valid).
func loadErrors(
    _ path: String, variables: [String: String] = [:], environment: [String: String] = [:]
) -> [PlanError] {
    do {
        _ = try PlanLoader.load(path: path, variables: variables, environment: environment)
        return []
    } catch {
        return error.errors
    }
}
