import NIOCore

/// One connection's phase and the deadline that goes with it, as a value (no I/O: the
/// connection's handler feeds it events and the clock, and does what it says).
///
/// - waiting: no request in progress. A new connection must complete its first request within
///   the request timeout from its opening; a kept-alive one may wait the idle timeout.
/// - reading: a request's first byte came (on a kept-alive connection the request timeout
///   starts there); its head is not complete yet.
/// - writing: answers being written; each must be written within the request timeout.
/// - closing: a refusal or a `Connection: close` answer went out and the output is shut; what
///   still comes is dropped until the linger deadline.
struct MonitorConnectionState: Equatable {
    /// Where the connection is.
    enum Phase: Equatable {
        case waiting(first: Bool)
        case reading
        /// `responses`: requests answered whose answers are not written yet (pipelined ones).
        case writing(responses: Int)
        case closing
    }

    /// What becomes of bytes that came.
    enum Arrival: Equatable {
        /// On to the HTTP decoder.
        case forward
        /// Read and dropped: the connection is closing.
        case drop
        /// Answer this, shut the output and linger: the decoder would hold the connection for them.
        case refuse(MonitorRoutes.Response)
    }

    /// What the connection does when its deadline has passed.
    enum Expiry: Equatable {
        /// Not yet (a deadline moved since the timer was set): wait for `deadline`.
        case notYet
        /// Close at once; nothing is said (idle, or a response was under way).
        case close
        /// Answer this (408), shut the output and linger: the request was not complete in time.
        case refuse(MonitorRoutes.Response)
    }

    let limits: MonitorConnectionLimits
    private(set) var phase: Phase
    /// The connection's request heads, as far as they came.
    private var head = MonitorRequestHeadScan()
    private(set) var deadline: NIODeadline

    init(openedAt now: NIODeadline, limits: MonitorConnectionLimits) {
        self.limits = limits
        phase = .waiting(first: true)
        deadline = now + TimeAmount(limits.requestTimeout)
    }

    /// Whether the cap may close this connection for a new one: any but one being answered.
    var isEvictable: Bool {
        switch phase {
        case .writing: false
        case .waiting, .reading, .closing: true
        }
    }

    /// `bytes` came: on to the decoder, dropped (once closing), or refused (see `MonitorRequestHeadScan`).
    mutating func bytesArrived(_ bytes: some Collection<UInt8>, at now: NIODeadline) -> Arrival {
        switch phase {
        case .waiting(let first):
            phase = .reading
            // The scan goes on from the last request's: this one may have begun in its last read.
            // The first request's time runs from the opening, a later one's from its first byte.
            if !first { deadline = now + TimeAmount(limits.requestTimeout) }
            return scan(bytes)
        case .reading:
            return scan(bytes)
        case .writing:
            // A pipelined request, which NIO holds until the answer is written. Scanned, so that the
            // scan knows where the next head starts; a refusal cannot be said in the middle of an answer.
            _ = head.take(bytes)
            return .forward
        case .closing:
            return .drop
        }
    }

    private mutating func scan(_ bytes: some Collection<UInt8>) -> Arrival {
        switch head.take(bytes) {
        case .fine: .forward
        case .noVersion: .refuse(MonitorRoutes.unsupportedVersion)
        case .tooLong: .refuse(MonitorRoutes.headTooLong)
        }
    }

    /// A request is complete (or refused from its head) and its answer is being written.
    mutating func answering(at now: NIODeadline) {
        switch phase {
        case .waiting, .reading:
            phase = .writing(responses: 1)
            deadline = now + TimeAmount(limits.requestTimeout)
        case .writing(let responses):
            phase = .writing(responses: responses + 1)
        case .closing:
            break
        }
    }

    /// An answer was written; with none left, the connection waits for the next request.
    mutating func answered(at now: NIODeadline) {
        switch phase {
        case .writing(let responses) where responses > 1:
            phase = .writing(responses: responses - 1)
            deadline = now + TimeAmount(limits.requestTimeout)
        case .writing:
            phase = .waiting(first: false)
            deadline = now + TimeAmount(limits.idleTimeout)
        case .waiting, .reading, .closing:
            break
        }
    }

    /// The output is shut (a refusal, a timeout's 408, `Connection: close`): linger, then close.
    mutating func closing(at now: NIODeadline) {
        if phase != .closing { deadline = now + TimeAmount(limits.linger) }
        phase = .closing
    }

    /// What to do at `now`, when the timer set for `deadline` fires.
    func expiry(at now: NIODeadline) -> Expiry {
        guard now >= deadline else { return .notYet }
        switch phase {
        case .reading: return .refuse(MonitorRoutes.timedOut(after: limits.requestTimeout))
        case .waiting, .writing, .closing: return .close
        }
    }
}
