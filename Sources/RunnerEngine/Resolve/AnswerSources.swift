import RunnerPlan
import RunnerVocabulary

/// What a `DomainResolver` asks beyond its plan's own lists: HTTPDNS services, a resolver, and the
/// ranking connects of an SDK's pick. A run's go through its engine (`AnswerSources(engine:probes:clock:)`);
/// tests script them (answers, failures, answers held back) without a socket. Each completes
/// once, on the resolver's thread.
struct AnswerSources {
    typealias Answer = Result<Resolution, TransferError>

    /// Sends `lookup`'s queries to its service and reads the replies.
    var service: (_ lookup: HTTPDNSLookup, _ completion: @escaping (Answer) -> Void) -> Void
    /// Asks `resolver` (the machine's, or a DNS server) for `host` by `ipVersion`, within `timeout`.
    var resolver: (
        _ host: String, _ resolver: ResolverChoice, _ ipVersion: IPVersionPreference, _ timeout: Duration,
        _ completion: @escaping (Answer) -> Void
    ) -> Void
    /// The SDK's ranking connects to `addresses` on `port` (each (address, port) once a cycle):
    /// each address's outcome, or why they did not end.
    var connects: (
        _ addresses: [IPAddress], _ port: Int, _ probe: ConnectProbe,
        _ completion: @escaping (Result<[IPAddress: ConnectOutcome], TransferError>) -> Void
    ) -> Void
}
