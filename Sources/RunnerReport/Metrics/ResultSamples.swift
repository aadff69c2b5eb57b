import RunnerResults
import RunnerVocabulary

/// What the exposition shows of one result: the labels that name it (redacted, unescaped) and
/// its values, taken from the result as it finished.
struct ResultSamples: Sendable {
    /// The `runner_result` status, as the label spells it.
    enum Status: String, Sendable, CaseIterable {
        case pass, fail, error, skipped
    }

    /// The request phases of `probe_http_duration_seconds`, in seconds summed over every hop.
    struct Phases: Sendable, Equatable {
        var resolve = 0.0
        var connect = 0.0
        var tls = 0.0
        var processing = 0.0
        var transfer = 0.0
    }

    /// What a result that ran shows (a skipped one shows only its status).
    struct Probe: Sendable {
        var success: Bool
        var duration: Double
        var phases: Phases
        /// The final response's, 0 without one.
        var statusCode: Int
        var httpVersion: Double
        var redirects: Int
        /// The final hop's certificate's notAfter, in Unix seconds; nil when it had none.
        var earliestCertificateExpiry: Double?
        var flaky: Bool
        var resolutionFallback: Bool
        /// `TLS 1.3`: the final hop's negotiated version; nil without a TLS session.
        var tlsVersion: StaticString?
        /// Whether the chain matched the pins; nil when the scenario has none.
        var pinMatch: Bool?
        /// A final response came, over TLS (`probe_http_ssl`).
        var ssl: Bool
        /// 4 or 6: the family of the result's address; 0 without one.
        var ipProtocol: Int
        /// Seconds the first request's address took to look up (the map's lookup; 0 for a static map).
        var dnsLookup: Double
        /// The final response's declared `Content-Length`, -1 when it declared none, 0 without a response.
        var contentLength: Int
        /// Bytes of the final response's body, as received (decoded).
        var bodyLength: Int
        /// OpenSSL's name of the final hop's cipher; nil without a TLS session.
        var cipher: String?
        /// The earliest notAfter of the final hop's verified chain, Unix seconds; nil without one.
        var lastChainExpiry: Double?
        /// The verified chain's leaf, as `probe_ssl_last_chain_info` labels it; nil without one.
        var lastChainLeaf: ChainLeaf?
    }

    /// `probe_ssl_last_chain_info`'s labels, as blackbox_exporter writes them (redacted).
    struct ChainLeaf: Sendable, Equatable {
        /// Lower-case hex of the leaf's SHA-256.
        var fingerprint: String
        var subject: String
        var issuer: String
        /// The DNS names and addresses of subjectAltName, joined with `,`.
        var subjectAlternative: String
        /// Lower-case hex.
        var serialNumber: String
    }

    var position: ResultPosition
    var scenario: String
    var strategy: String
    /// Empty without a pinned IP (strategy `system`, or a host that did not resolve).
    var ip: String
    /// A flow step's lane, `login [sni-resolve 10.0.0.1]` (nearest first); empty for other results.
    var after: String = ""
    var status: Status
    var probe: Probe?
    /// What the scenario's resolver answered during the result, per host asked (`resolver:`).
    var dns: [DNSSample] = []
    /// The user populations whose answer held the result's address (`clients:`), in the
    /// plan's order; empty when its map asks as this machine.
    var clients: [ClientSample] = []
    /// An address the map's service no longer returns, checked because apps still hold it.
    var retained = false

    /// A population the result's address was given to (or, for a result without an address,
    /// whose lookup failed), its name and label values redacted.
    struct ClientSample: Sendable, Equatable {
        var name: String
        var labels: [ClientIdentity.Label]
        /// Its `expect.edges` misses on this result.
        var misses: Int
    }

    /// One host a resolver was asked for during the result.
    struct DNSSample: Sendable, Equatable {
        var resolver: String
        var host: String
        /// Returned addresses the maps do not list; nil when `expect.dns` did not check it.
        var foreign: Int?
        var duration: Double
    }
}
