import Foundation
import RunnerResults

/// The samples of one cycle — a run of the plans — ready to be rendered, as many times as
/// asked (`runner serve` keeps the latest completed cycle's and renders it per scrape). Every
/// label value is redacted; no two results, and no two HTTPDNS lookups, share their labels.
public struct CycleSamples: Sendable {
    /// Each plan's `plan` label, in command-line order.
    var plans: [String]
    /// In plan order.
    var results: [ResultSamples]
    /// Per plan (its index in `plans`), the latest lookup of each HTTPDNS map and host.
    var lookups: [(plan: Int, lookup: HTTPDNSLookupResult)]
    /// The addresses the populations' app SDKs pick (`sdk:`), in plan order, labels redacted.
    var picks: [AppPickTally.Sample] = []
    /// The apps' pin expiries and refusals (`app:`).
    var apps = AppPolicyTally()
    /// Seconds the cycle took.
    public var duration: Double
    /// When it ended.
    public var endedAt: Date

    /// How many results the cycle had.
    public var resultCount: Int { results.count }
}
