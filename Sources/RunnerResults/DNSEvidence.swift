/// What a resolver answered for one host during a result (`resolver:`), and, under
/// `expect.dns.within`, which of its addresses the named maps do not list.
public struct DNSLookupEvidence: Sendable, Equatable {
    /// As the plan writes it: `system` or `192.0.2.53:53`.
    public var resolver: String
    public var host: String
    /// Each question asked, in order (A, then AAAA, as `ip_version` asks).
    public var questions: [DNSQuestionEvidence]
    /// The maps the answer was checked against (`expect.dns.within`); nil when not checked.
    public var within: [String]?
    /// The returned addresses none of `within` lists for the host, in the resolver's order.
    public var foreign: [String] = []

    public init(resolver: String, host: String, questions: [DNSQuestionEvidence]) {
        self.resolver = resolver
        self.host = host
        self.questions = questions
    }

    /// Every address the resolver returned for the host, each once, in the questions' order.
    public var addresses: [String] {
        var all: [String] = []
        for question in questions {
            for address in question.addresses where !all.contains(address) { all.append(address) }
        }
        return all
    }

    /// The time the lookup took: the questions are asked one after another.
    public var duration: Duration { questions.reduce(.zero) { $0 + $1.duration } }
}

/// One question to a resolver and its answer.
public struct DNSQuestionEvidence: Sendable, Equatable {
    /// `A`, `AAAA`, or `A+AAAA` for the machine's resolver (getaddrinfo asks both).
    public var type: String
    /// The response code by name (`NOERROR`, `NXDOMAIN`, `SERVFAIL`, …); nil when no message came
    /// back or the machine's resolver was asked (it does not tell).
    public var rcode: String?
    /// The addresses of the asked type, in the answer's order.
    public var addresses: [String]
    /// The smallest TTL of the records used, in seconds; nil when unknown.
    public var ttl: Int?
    /// The CNAME chain followed from the host to the addresses' name, in order.
    public var aliases: [String]
    /// How long the question took.
    public var duration: Duration
    /// Why the question gave no address (no answer in time, REFUSED, …); nil when it gave some.
    public var problem: String?

    public init(
        type: String, rcode: String?, addresses: [String], ttl: Int?, aliases: [String], duration: Duration,
        problem: String?
    ) {
        self.type = type
        self.rcode = rcode
        self.addresses = addresses
        self.ttl = ttl
        self.aliases = aliases
        self.duration = duration
        self.problem = problem
    }
}
