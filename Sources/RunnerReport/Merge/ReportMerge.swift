import Foundation
import RunnerResults
import RunnerVocabulary

/// `runner merge`: the JSON reports of a run's shards read back and joined into one run —
/// suites per plan (in the order the shards ran them), each plan's results in plan order
/// (by `scenario_index`), counts from the results, times spanning the shards.
public enum ReportMerge {
    /// Joins `inputs`, or says which one is wrong and how.
    public static func merge(_ inputs: [ReportInput]) throws(MergeError) -> MergedRun {
        var documents: [(path: String, document: Document)] = []
        for input in inputs { documents.append((input.path, try read(input))) }
        try checkSplit(documents)

        var plans: [PlanIdentity] = []
        var suiteIndex: [PlanIdentity: Int] = [:]
        var suites: [SuiteParts] = []
        for (path, document) in documents {
            for (number, suite) in document.suites.enumerated() {
                let plan = PlanIdentity(name: suite.name, file: suite.file)
                let index = suiteIndex[plan] ?? {
                    plans.append(plan)
                    suites.append(SuiteParts())
                    suiteIndex[plan] = suites.count - 1
                    return suites.count - 1
                }()
                try suites[index].add(suite, from: path, field: "suites[\(number)]")
            }
        }

        var results: [(ScenarioResult, ResultPosition)] = []
        var suiteResults: [SuiteResult] = []
        for (index, parts) in suites.enumerated() {
            let ordered = parts.resultsInPlanOrder(suite: index)
            results += ordered
            suiteResults.append(parts.suiteResult(plan: plans[index], counts: ordered.reduce(OutcomeCounts()) { $0 + $1.0.outcome.counts }))
        }
        let runners = documents.map(\.document.runner)
        let starts = try documents.map { (path, document) throws(MergeError) in
            try date(document.runner.startedAt, path: path, field: "runner.started_at")
        }
        let span = TimeSpan(starts: starts, durations: runners.map { .milliseconds($0.durationMs) })
        let interruptedBy = runners.lazy.compactMap(\.interruptedBy).first.flatMap(Format.signal(named:))
        // The shards' state files (one shared file, or one each): what any of them did not record.
        var state = runners.lazy.compactMap(\.state).first
        for shardState in runners.compactMap(\.state).dropFirst() { state?.add(shardState) }
        let run = RunResult(
            suites: suiteResults, startedAt: span.start, duration: span.duration, interruptedBy: interruptedBy,
            connectionsOpened: documents.reduce(0) { $0 + $1.document.summary.connectionsOpened }, stateRecording: state)
        return MergedRun(run: run, plans: plans, results: results)
    }

    /// One input decoded, or why it is not a report this runner reads.
    private static func read(_ input: ReportInput) throws(MergeError) -> Document {
        if input.bytes.first(where: { !Self.isWhitespace($0) }) == UInt8(ascii: "<") {
            throw .junitGiven(path: input.path)
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: input.bytes)
        } catch {
            // A later shape is named as such, not as a missing key (read again only then: a
            // shard's report may be tens of megabytes).
            if let header = try? JSONDecoder().decode(VersionHeader.self, from: input.bytes),
                header.runner.formatVersion != JSONReport.formatVersion
            {
                throw .unsupportedVersion(path: input.path, version: header.runner.formatVersion)
            }
            guard let error = error as? DecodingError else {
                throw .notAReport(path: input.path, field: nil, detail: "\(error)")
            }
            let (field, detail) = DecodingProblem.describe(error)
            throw .notAReport(path: input.path, field: field, detail: detail)
        }
        guard document.runner.formatVersion == JSONReport.formatVersion else {
            throw .unsupportedVersion(path: input.path, version: document.runner.formatVersion)
        }
        return document
    }

    /// The inputs are either whole runs, or every shard of one split, each once.
    private static func checkSplit(_ documents: [(path: String, document: Document)]) throws(MergeError) {
        var seen: [Shard: String] = [:]
        var first: (path: String, shard: Shard?)?
        for (path, document) in documents {
            let shard = try document.runner.shard.map { (text: String) throws(MergeError) -> Shard in
                guard let shard = Shard(notation: text) else {
                    throw .notAReport(path: path, field: "runner.shard", detail: "'\(text)' is not K/N")
                }
                return shard
            }
            guard let earlier = first else {
                first = (path, shard)
                if let shard { seen[shard] = path }
                continue
            }
            guard (earlier.shard == nil) == (shard == nil), earlier.shard?.count == shard?.count else {
                throw .mismatchedSplit(path: path, shard: shard, otherPath: earlier.path, otherShard: earlier.shard)
            }
            guard let shard else { continue }
            if let other = seen[shard] { throw .duplicateShard(shard, first: other, second: path) }
            seen[shard] = path
        }
        guard let count = first?.shard?.count else { return }
        let missing = (1...count).compactMap { Shard(index: $0, count: count) }.filter { seen[$0] == nil }
        if !missing.isEmpty { throw .missingShards(missing) }
    }

    private static func date(_ text: String, path: String, field: String) throws(MergeError) -> Date {
        do {
            return try ReportDate.parse(text, field: field)
        } catch {
            throw .notAReport(path: path, field: error.field, detail: error.message)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Just enough of a report to know its shape's version.
    private struct VersionHeader: Decodable {
        struct Runner: Decodable {
            var formatVersion: Int
            enum CodingKeys: String, CodingKey { case formatVersion = "format_version" }
        }
        var runner: Runner
    }
}
