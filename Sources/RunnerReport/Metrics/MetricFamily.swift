/// A metric family of the exposition: its name, what its `# HELP` says, its type, and the
/// labels its samples carry besides the constant ones. The families the runner writes are the
/// static members, in the order they are written.
struct MetricFamily: Sendable {
    enum Kind: String, Sendable {
        case gauge
        case counter
    }

    let name: String
    let help: String
    let type: Kind
    let labels: [String]
    /// `name`'s UTF-8, which starts every one of the family's samples.
    let nameBytes: [UInt8]

    init(name: String, help: String, type: Kind, labels: [String]) {
        self.name = name
        self.help = help
        self.type = type
        self.labels = labels
        nameBytes = Array(name.utf8)
    }

    /// Labels of the series of one result: which result it is.
    static let resultLabels = ["plan", "scenario", "strategy", "ip"]
    /// Labels of the series of one HTTPDNS lookup.
    static let lookupLabels = ["plan", "map", "host"]

    // Per result, with blackbox_exporter's names and meanings (probe_*) and the runner's own.

    static let probeSuccess = MetricFamily(
        name: "probe_success", help: "Whether the result passed (1) or not (0).", type: .gauge, labels: resultLabels)
    static let probeDuration = MetricFamily(
        name: "probe_duration_seconds",
        help: "Seconds the result's last attempt took, from its first byte sent to its verdict.", type: .gauge,
        labels: resultLabels)
    static let probeHTTPDuration = MetricFamily(
        name: "probe_http_duration_seconds",
        help: "Seconds of each phase of the result's requests, summed over all redirects.", type: .gauge,
        labels: resultLabels + ["phase"])
    static let probeHTTPStatusCode = MetricFamily(
        name: "probe_http_status_code", help: "HTTP status of the final response (0 without one).", type: .gauge,
        labels: resultLabels)
    static let probeHTTPVersion = MetricFamily(
        name: "probe_http_version", help: "HTTP version of the final response: 1, 1.1, 2 or 3 (0 without one).",
        type: .gauge, labels: resultLabels)
    static let probeHTTPRedirects = MetricFamily(
        name: "probe_http_redirects", help: "The number of redirects followed.", type: .gauge, labels: resultLabels)
    static let probeSSLEarliestCertExpiry = MetricFamily(
        name: "probe_ssl_earliest_cert_expiry",
        help: "The earliest expiry (notAfter) of the certificates the final server presented, in Unix seconds; an expired or untrusted chain included.",
        type: .gauge, labels: resultLabels)
    static let probeTLSVersionInfo = MetricFamily(
        name: "probe_tls_version_info", help: "The TLS version the final response's connection negotiated, as a label; always 1.",
        type: .gauge, labels: resultLabels + ["version"])
    static let probeHTTPSSL = MetricFamily(
        name: "probe_http_ssl", help: "Whether the final response came over TLS (1) or not (0).", type: .gauge,
        labels: resultLabels)
    static let probeIPProtocol = MetricFamily(
        name: "probe_ip_protocol", help: "The IP family of the result's address: 4 or 6 (0 without one).", type: .gauge,
        labels: resultLabels)
    static let probeDNSLookupTime = MetricFamily(
        name: "probe_dns_lookup_time_seconds",
        help: "Seconds the result's address took to look up: its map's HTTPDNS or resolver lookup (0 for a static map or an answer already at hand).",
        type: .gauge, labels: resultLabels)
    static let probeHTTPContentLength = MetricFamily(
        name: "probe_http_content_length",
        help: "The Content-Length the final response declared (-1 when it declared none, 0 without a response).", type: .gauge,
        labels: resultLabels)
    static let probeHTTPUncompressedBodyLength = MetricFamily(
        name: "probe_http_uncompressed_body_length", help: "Bytes of the final response's body, decoded.", type: .gauge,
        labels: resultLabels)
    static let probeGRPCStatusCode = MetricFamily(
        name: "probe_grpc_status_code", help: "A gRPC call's status code (grpc-status; 0 is OK), as blackbox_exporter's gRPC prober reports it.",
        type: .gauge, labels: resultLabels)
    static let probeGRPCHealthcheckResponse = MetricFamily(
        name: "probe_grpc_healthcheck_response",
        help: "A gRPC health check's serving status: 1 on the status it answered, 0 on the others.", type: .gauge,
        labels: resultLabels + ["serving_status"])
    static let probeGRPCSSL = MetricFamily(
        name: "probe_grpc_ssl", help: "Whether a gRPC call went over TLS (1) or cleartext h2c (0).", type: .gauge, labels: resultLabels)
    static let probeGRPCDuration = MetricFamily(
        name: "probe_grpc_duration_seconds",
        help: "Seconds of a gRPC call by blackbox_exporter's phases: resolve (the address's lookup) and check (the rest).",
        type: .gauge, labels: resultLabels + ["phase"])
    static let probeTLSCipherInfo = MetricFamily(
        name: "probe_tls_cipher_info",
        help: "The cipher the final response's connection negotiated (OpenSSL's name), as a label; always 1.", type: .gauge,
        labels: resultLabels + ["cipher"])
    static let probeSSLLastChainExpiry = MetricFamily(
        name: "probe_ssl_last_chain_expiry_timestamp_seconds",
        help: "The earliest expiry (notAfter) in the final response's verified chain, in Unix seconds.", type: .gauge,
        labels: resultLabels)
    static let probeSSLLastChainInfo = MetricFamily(
        name: "probe_ssl_last_chain_info",
        help: "The leaf of the final response's verified chain, as labels (its SHA-256, subject, issuer, subjectAltName and serial); always 1.",
        type: .gauge, labels: resultLabels + ["fingerprint_sha256", "subject", "issuer", "subjectalternative", "serialnumber"])
    static let result = MetricFamily(
        name: "runner_result",
        help: "The result's status: 1 for the one it had, 0 for the others (pass, fail, error, skipped).",
        type: .gauge, labels: resultLabels + ["status"])
    static let resultFlaky = MetricFamily(
        name: "runner_result_flaky", help: "Whether the result passed only on a retry.", type: .gauge,
        labels: resultLabels)
    static let resolutionFallback = MetricFamily(
        name: "runner_resolution_fallback",
        help: "Whether the result's IP came from a domain map's fallback because its HTTPDNS service failed.",
        type: .gauge, labels: resultLabels)
    static let addressRetained = MetricFamily(
        name: "runner_address_retained",
        help: "1 for a result on an address its map's service no longer returns but returned within retain: (apps' caches still hold it); absent for the others.",
        type: .gauge, labels: resultLabels)
    static let certificatePinMatch = MetricFamily(
        name: "runner_certificate_pin_match",
        help: "Whether a certificate of the final response's verified chain matched the scenario's pins (only with expect.certificate.pins).",
        type: .gauge, labels: resultLabels)

    // Per HTTPDNS map and host a plan asked (the latest lookup).

    static let httpdnsLookupSuccess = MetricFamily(
        name: "runner_httpdns_lookup_success",
        help: "Whether the HTTPDNS service answered the lookup with at least one address (before any fallback).",
        type: .gauge, labels: lookupLabels)
    static let httpdnsLookupDuration = MetricFamily(
        name: "runner_httpdns_lookup_duration_seconds",
        help: "Seconds the HTTPDNS lookup took, every query and service address tried.", type: .gauge,
        labels: lookupLabels)
    static let httpdnsAnswerAddresses = MetricFamily(
        name: "runner_httpdns_answer_addresses", help: "Addresses in the HTTPDNS service's answer (0 when it failed).",
        type: .gauge, labels: lookupLabels)

    // Per resolver check (`resolver:`, `expect.dns`).

    static let dnsForeignAddresses = MetricFamily(
        name: "runner_dns_foreign_addresses",
        help: "Addresses the resolver returned for the host that none of expect.dns.within's maps lists.",
        type: .gauge, labels: ["plan", "scenario", "strategy", "resolver", "host"])
    static let dnsLookupDuration = MetricFamily(
        name: "runner_dns_lookup_duration_seconds",
        help: "Seconds the resolver took to answer the host's questions (the latest lookup).", type: .gauge,
        labels: ["resolver", "host"])

    // Per user population of a scenario on a map asked as clients (`clients:`); the client's
    // own labels follow these.

    static let clientEdges = MetricFamily(
        name: "runner_client_edges",
        help: "Distinct addresses the client population was given for the scenario (0 when its lookup failed).",
        type: .gauge, labels: ["plan", "scenario", "client"])
    static let clientEdgesPassing = MetricFamily(
        name: "runner_client_edges_passing",
        help: "How many of the client population's addresses passed under every strategy the scenario ran.",
        type: .gauge, labels: ["plan", "scenario", "client"])
    static let schedulingMisses = MetricFamily(
        name: "runner_scheduling_misses",
        help: "Addresses the client population was given outside its expect.edges rules.", type: .gauge,
        labels: ["plan", "scenario", "client"])

    // Per address a population's app SDK picks (an HTTPDNS map with `sdk:`), the results that
    // share it together.

    static let appPick = MetricFamily(
        name: "runner_app_pick",
        help: "1 for each address a client population's HTTPDNS SDK picks for the host (the address its apps connect to); absent for the others.",
        type: .gauge, labels: ["plan", "map", "host", "client", "ip"])
    static let appPickSuccess = MetricFamily(
        name: "runner_app_pick_success",
        help: "Whether every result on the address the population's SDK picks passed (1) or one failed or errored (0); absent when all were skipped.",
        type: .gauge, labels: ["plan", "map", "host", "client", "ip"])

    // The apps' own trust rules (`app:`).

    static let appPinsExpiry = MetricFamily(
        name: "runner_app_pins_expiry_timestamp_seconds",
        help: "When the pins an app's files declare for a host stop applying (midnight UTC of their expiration), in Unix seconds.",
        type: .gauge, labels: ["plan", "app", "platform", "host"])
    static let appPolicyProblems = MetricFamily(
        name: "runner_app_policy_problems",
        help: "Results whose app refused them (kind pins, cleartext, ats, anchors) or warned of them (pins-expired, pins-expiring, no-backup-pin, pins-not-applied).",
        type: .gauge, labels: ["plan", "app", "host", "strategy", "kind"])

    // The cycle (a run; `runner serve` runs one per --every) and the runner itself.

    static let cycleDuration = MetricFamily(
        name: "runner_cycle_duration_seconds", help: "Seconds the latest completed cycle took.", type: .gauge,
        labels: [])
    static let lastCycleTimestamp = MetricFamily(
        name: "runner_last_cycle_timestamp_seconds", help: "When the latest completed cycle ended, in Unix seconds.",
        type: .gauge, labels: [])
    static let cyclesTotal = MetricFamily(
        name: "runner_cycles_total", help: "Cycles completed.", type: .counter, labels: [])
    static let configLastReloadSuccessful = MetricFamily(
        name: "runner_config_last_reload_successful",
        help: "Whether the plans were last loaded (or reloaded) without errors.", type: .gauge, labels: [])
    static let stateWriteFailures = MetricFamily(
        name: "runner_state_write_failures_total",
        help: "Cycles whose HTTPDNS answers the state file (--state) could not all record.", type: .counter, labels: [])
    static let stateLastWriteSuccess = MetricFamily(
        name: "runner_state_last_write_success_timestamp_seconds",
        help: "When the last cycle whose answers the state file all recorded ended, in Unix seconds.", type: .gauge,
        labels: [])
    static let buildInfo = MetricFamily(
        name: "runner_build_info", help: "The runner's version, as a label; always 1.", type: .gauge,
        labels: ["version"])

    /// Every family, in the order the exposition writes them.
    static let all: [MetricFamily] = [
        probeSuccess, probeDuration, probeHTTPDuration, probeHTTPStatusCode, probeHTTPVersion, probeHTTPRedirects,
        probeSSLEarliestCertExpiry, probeTLSVersionInfo, probeHTTPSSL, probeIPProtocol, probeDNSLookupTime,
        probeHTTPContentLength, probeHTTPUncompressedBodyLength, probeTLSCipherInfo, probeSSLLastChainExpiry,
        probeSSLLastChainInfo, probeGRPCStatusCode, probeGRPCHealthcheckResponse, probeGRPCSSL, probeGRPCDuration, result, resultFlaky, resolutionFallback, addressRetained, certificatePinMatch,
        httpdnsLookupSuccess, httpdnsLookupDuration, httpdnsAnswerAddresses, dnsForeignAddresses, dnsLookupDuration,
        clientEdges, clientEdgesPassing, schedulingMisses, appPick, appPickSuccess, appPinsExpiry, appPolicyProblems, cycleDuration, lastCycleTimestamp, cyclesTotal, configLastReloadSuccessful,
        stateWriteFailures, stateLastWriteSuccess, buildInfo,
    ]

    /// Every label name some family sets itself; a constant label may not take one.
    static let ownLabelNames: Set<String> = Set(all.flatMap(\.labels))
}
