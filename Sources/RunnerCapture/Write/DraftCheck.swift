import Foundation
import RunnerPlan

/// The last word on a drafted plan is the plan loader's: `runner check --no-env` on the text
/// itself. A scenario the loader refuses (a value a capture tool wrote that no plan can hold)
/// is left out with its reason, and the rest checked again; an error outside the scenarios
/// (the map, the defaults, what `--domains` copied) is the caller's to report.
public enum DraftCheck {
    /// The plan's text once it passes the check, written at `path` (where its relative paths
    /// hold: its body files already in place); `draft` loses the scenarios that did not pass
    /// (the text is empty when none is left).
    public static func settle(_ draft: inout PlanDraft, settings: DraftPlanSettings, path: String) throws(PlanErrors) -> String {
        while true {
            let yaml = draft.yaml(settings)
            guard let data = yaml.data(using: .utf8), (try? data.write(to: URL(fileURLWithPath: path))) != nil else {
                throw PlanErrors([PlanError(location: SourceLocation(file: path, line: 1, column: 1), message: "cannot write the plan")])
            }
            let errors: [PlanError]
            do throws(PlanErrors) {
                _ = try PlanLoader.check(path: path, environment: [:], unsetEnvironment: .unknown)
                return yaml
            } catch {
                errors = error.errors.filter { $0.severity == .error }
            }
            let starts = scenarioStartLines(yaml)
            var refused: [String: String] = [:]
            for error in errors {
                guard let line = error.location?.line, let index = starts.lastIndex(where: { $0 <= line }), draft.scenarios.indices.contains(index) else {
                    throw PlanErrors(errors)
                }
                let name = draft.scenarios[index].name
                if refused[name] == nil { refused[name] = "a plan cannot hold what the capture recorded: \(error.message)" }
            }
            guard !refused.isEmpty else { throw PlanErrors(errors) }
            draft.remove(refused)
            // Nothing left to check: the caller says that no request makes a scenario.
            if draft.scenarios.isEmpty { return "" }
        }
    }

    /// The line (from 1) where each item of the top-level `scenarios:` list starts, in order.
    static func scenarioStartLines(_ yaml: String) -> [Int] {
        var starts: [Int] = []
        var inScenarios = false
        for (offset, line) in yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("scenarios:") {
                inScenarios = true
            } else if inScenarios, line.hasPrefix("  - ") {
                starts.append(offset + 1)
            } else if inScenarios, let first = line.first, first != " ", first != "#" {
                inScenarios = false
            }
        }
        return starts
    }
}

extension PlanDraft {
    /// Without the scenarios `refused` names (and those that run after them), each noted with
    /// the reason given.
    mutating func remove(_ refused: [String: String]) {
        var removed = Set(refused.keys)
        var grew = true
        while grew {
            grew = false
            for scenario in scenarios where !removed.contains(scenario.name) {
                if let after = scenario.after, removed.contains(after) {
                    removed.insert(scenario.name)
                    notes.append("dropped: '\(scenario.name)': it runs after '\(after)', which was dropped")
                    grew = true
                }
            }
        }
        for (name, reason) in refused.sorted(by: { $0.key < $1.key }) {
            notes.append("dropped: '\(name)': \(reason)")
        }
        scenarios.removeAll { removed.contains($0.name) }
        secrets = secrets.compactMap { secret in
            var secret = secret
            secret.uses.removeAll { use in removed.contains { use.hasSuffix("'\($0)'") } }
            return secret.uses.isEmpty ? nil : secret
        }
    }
}
