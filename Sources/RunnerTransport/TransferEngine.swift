/// Runs transfers on one libcurl multi handle, at most `maxInFlight` at once, on the calling
/// thread. Completions run on that thread too and may submit more transfers (redirect hops,
/// diagnosis probes); `run()` returns when nothing is queued or in flight.
public final class TransferEngine {
    public init(maxInFlight: Int) throws(TransportError) {
        fatalError("unimplemented: helper B writes this")
    }

    /// Queues a transfer; `completion` runs exactly once, with its outcome.
    public func submit(_ spec: TransferSpec, completion: @escaping (TransferOutcome) -> Void) {
        fatalError("unimplemented: helper B writes this")
    }

    /// Drives every queued transfer to completion.
    public func run() {
        fatalError("unimplemented: helper B writes this")
    }

    /// Aborts every queued and in-flight transfer (their completions get an `io` failure
    /// "aborted"); safe to call from a completion. Used on SIGINT/SIGTERM.
    public func cancelAll() {
        fatalError("unimplemented: helper B writes this")
    }
}

/// A libcurl call that failed outside a transfer (setting up the engine), with the call named.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var code: Int
    public var message: String

    public init(call: String, code: Int, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    public var description: String { "\(call) failed (\(code)): \(message)" }
}
