import RunnerVocabulary

/// Why `runner merge` cannot join its reports; each says which input and what is wrong.
public enum MergeError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// Not a runner JSON report, or one with a value no runner writes (`field`: where).
    case notAReport(path: String, field: String?, detail: String)
    /// A JUnit document: merge reads the JSON reports, which hold every result whole.
    case junitGiven(path: String)
    /// A report of a later shape than this runner reads.
    case unsupportedVersion(path: String, version: Int)
    /// The same result of the same plan in two inputs.
    case duplicateResult(plan: String, result: String, first: String, second: String)
    /// Reports of shards mixed with a whole run's, or with shards of a different split.
    case mismatchedSplit(path: String, shard: Shard?, otherPath: String, otherShard: Shard?)
    /// The same shard twice.
    case duplicateShard(Shard, first: String, second: String)
    /// Shards of the split that no input holds: a merged report would quietly lack their results.
    case missingShards([Shard])

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .notAReport(let path, let field, let detail):
            return "'\(path)' is not a runner JSON report: \(field.map { "at \($0): " } ?? "")\(detail)"
        case .junitGiven(let path):
            return "'\(path)' is a JUnit report; merge reads the shards' JSON reports (run each shard with --json), "
                + "which hold every result whole, and writes the merged JUnit from them (--junit)"
        case .unsupportedVersion(let path, let version):
            return "'\(path)' is a JSON report of format_version \(version); this runner reads version \(JSONReport.formatVersion)"
        case .duplicateResult(let plan, let result, let first, let second):
            return "result '\(result)' of plan '\(plan)' is in both '\(first)' and '\(second)': "
                + "each result must come from one report (was a shard given twice, or two runs mixed?)"
        case .mismatchedSplit(let path, let shard, let otherPath, let otherShard):
            return "'\(path)' is \(Self.describe(shard)) but '\(otherPath)' is \(Self.describe(otherShard)): "
                + "merge joins the shards of one split (--shard K/N with the same N)"
        case .duplicateShard(let shard, let first, let second):
            return "shard \(shard) is given twice: '\(first)' and '\(second)'"
        case .missingShards(let shards):
            let list = shards.map(\.description).joined(separator: ", ")
            return "shard\(shards.count == 1 ? "" : "s") \(list) missing: the merged report would lack \(shards.count == 1 ? "its" : "their") results"
        }
    }

    private static func describe(_ shard: Shard?) -> String {
        shard.map { "shard \($0)" } ?? "a whole run (no --shard)"
    }
}
