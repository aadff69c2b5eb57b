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

    /// What a result that ran shows (a skipped one shows only its status). Laid out with its
    /// small fields last: a run of 40,000 results keeps 40,000 of these.
    struct Probe: Sendable {
        var duration: Double
        var phases: Phases
        var httpVersion: Double
        /// Seconds the first request's address took to look up (the map's lookup; 0 for a static map).
        var dnsLookup: Double
        /// The final response's, 0 without one.
        var statusCode: Int
        var redirects: Int
        /// The final response's declared `Content-Length`, -1 when it declared none, 0 without a response.
        var contentLength: Int
        /// Bytes of the final response's body, as received (decoded).
        var bodyLength: Int
        /// The final hop's TLS session as the series show it, shared by the results on the same
        /// certificate and session; nil without one.
        var tls: TLSSample?
        var success: Bool
        var flaky: Bool
        var resolutionFallback: Bool
        /// A final response came, over TLS (`probe_http_ssl`).
        var ssl: Bool
        /// Whether the chain matched the pins; nil when the scenario has none.
        var pinMatch: Bool?
        /// 4 or 6: the family of the result's address; 0 without one.
        var ipProtocol: UInt8
        /// A gRPC call's answer (`request.grpc`); nil for a plain request.
        var grpc: GRPCSample? = nil
    }

    /// What the `probe_grpc_*` series show of a gRPC call's answer.
    struct GRPCSample: Sendable, Equatable {
        /// Nil when the answer carried no status.
        var status: Int?
        var serving: GRPCServingStatus?
    }

    /// What a final hop's TLS session shows in the series: its version and cipher, the expiries
    /// and the verified chain's leaf. One object for every result on the same certificate and
    /// session (`TLSSample.Cache`), so a large run keeps a handful.
    final class TLSSample: Sendable {
        /// `TLS 1.3`: the negotiated version's label; nil without a session (a certificate only).
        let version: StaticString?
        /// OpenSSL's name of the cipher; nil when it named none.
        let cipher: String?
        /// The earliest notAfter of the certificates the server presented, in Unix seconds.
        let earliestCertificateExpiry: Double?
        /// The earliest notAfter of the verified chain, in Unix seconds; nil without one.
        let lastChainExpiry: Double?
        /// The verified chain's leaf, as `probe_ssl_last_chain_info` labels it; nil without one.
        let lastChainLeaf: ChainLeaf?

        init(version: StaticString?, cipher: String?, earliestCertificateExpiry: Double?, lastChainExpiry: Double?, lastChainLeaf: ChainLeaf?) {
            self.version = version
            self.cipher = cipher
            self.earliestCertificateExpiry = earliestCertificateExpiry
            self.lastChainExpiry = lastChainExpiry
            self.lastChainLeaf = lastChainLeaf
        }

        /// The samples made so far, by what tells sessions apart.
        struct Cache {
            struct Key: Hashable {
                var version: TLSVersion?
                var cipher: String
                var fingerprint: String?
                var verified: Bool
                var earliest: Double?
            }

            var samples: [Key: TLSSample] = [:]
        }
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
