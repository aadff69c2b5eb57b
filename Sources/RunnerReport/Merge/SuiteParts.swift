import Foundation
import RunnerResults

/// One plan's suites from every shard that ran it, gathered for `ReportMerge`.
struct SuiteParts {
    private var starts: [Date] = []
    private var durations: [Duration] = []
    private var hostnames: [String] = []
    private var properties: [Property] = []
    /// Each result with its scenario's place in the plan and the report it came from.
    private var results: [(result: ScenarioResult, scenarioIndex: Int, path: String)] = []
    private var sourceOfName: [String: String] = [:]

    /// Adds one shard's suite record (`field`: its place in the report, for problems).
    mutating func add(_ suite: SuiteRecord, from path: String, field: String) throws(MergeError) {
        do {
            starts.append(try ReportDate.parse(suite.timestamp, field: field + ".timestamp"))
        } catch {
            throw .notAReport(path: path, field: error.field, detail: error.message)
        }
        durations.append(.milliseconds(suite.durationMs))
        if !hostnames.contains(suite.hostname) { hostnames.append(suite.hostname) }
        // The report keeps repeated names' values joined by newlines; they come back one each.
        for (name, joined) in suite.properties.sorted(by: { $0.key < $1.key }) {
            for value in joined.split(separator: "\n", omittingEmptySubsequences: false) {
                let property = Property(name: name, value: String(value))
                if !properties.contains(property) { properties.append(property) }
            }
        }
        for (number, record) in suite.results.enumerated() {
            if let other = sourceOfName[record.name] {
                throw .duplicateResult(plan: suite.name, result: record.name, first: other, second: path)
            }
            sourceOfName[record.name] = path
            let result: ScenarioResult
            do {
                result = try ScenarioResult(record, field: "\(field).results[\(number)]")
            } catch {
                throw .notAReport(path: path, field: error.field, detail: error.message)
            }
            results.append((result, record.scenarioIndex, path))
        }
    }

    /// The results in plan order: by scenario, and within a scenario as its shard listed them.
    func resultsInPlanOrder(suite: Int) -> [(ScenarioResult, ResultPosition)] {
        // A scenario runs whole in one shard, so its results sit together, in slot order.
        let ordered = results.enumerated().sorted { ($0.element.scenarioIndex, $0.offset) < ($1.element.scenarioIndex, $1.offset) }
        var positioned: [(ScenarioResult, ResultPosition)] = []
        var slot = 0
        for (index, entry) in ordered.enumerated() {
            let previous = index > 0 ? ordered[index - 1].element.scenarioIndex : nil
            slot = previous == entry.element.scenarioIndex ? slot + 1 : 0
            positioned.append((entry.element.result, ResultPosition(suite: suite, scenario: entry.element.scenarioIndex, slot: slot)))
        }
        return positioned
    }

    /// The plan's suite as one run would have reported it: from the first shard's start to the
    /// last one's end, on every machine that ran a part.
    func suiteResult(plan: PlanIdentity, counts: OutcomeCounts) -> SuiteResult {
        let span = TimeSpan(starts: starts, durations: durations)
        return SuiteResult(
            plan: plan, startedAt: span.start, duration: span.duration, hostname: hostnames.joined(separator: ", "),
            properties: properties, counts: counts)
    }
}
