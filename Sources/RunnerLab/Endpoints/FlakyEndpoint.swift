import NIOConcurrencyHelpers
import NIOCore

/// `/flaky/{key}?fails=N[&delay=MS]`: the first N requests for a key answer 503 (after MS
/// milliseconds, so a short client timeout turns them into errors), later ones 200 with the
/// request's number. Keys are independent, so tests do not disturb each other.
struct FlakyEndpoint: Endpoint {
    let ledger: FlakyLedger

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let key = request.routeParameter
        let parameters: [(name: String, value: String)]
        do {
            parameters = try QueryString.pairs(request.query)
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(String(describing: error)))
        }
        let fails = parameters.last { $0.name == "fails" }.map(\.value)
        let delay = parameters.last { $0.name == "delay" }.map(\.value) ?? "0"
        guard !key.isEmpty, let failures = Int(fails ?? ""), failures >= 0,
            let milliseconds = Int64(delay), (0...DelayEndpoint.maximumMilliseconds).contains(milliseconds)
        else {
            return eventLoop.makeSucceededFuture(.badRequest(
                "/flaky/{key} wants ?fails=N (N >= 0) and an optional &delay=MS, got \"\(request.head.uri)\""))
        }
        let attempt = ledger.next(key)
        let answer = LabResponse.json(
            .object([("key", .string(key)), ("attempt", .int(attempt))]),
            status: attempt <= failures ? .serviceUnavailable : .ok)
        guard attempt <= failures, milliseconds > 0 else { return eventLoop.makeSucceededFuture(answer) }
        return eventLoop.scheduleTask(in: .milliseconds(milliseconds)) { answer }.futureResult
    }
}

/// Requests seen per flaky key, from any event loop.
final class FlakyLedger: Sendable {
    private let counts = NIOLockedValueBox([String: Int]())

    /// Counts one more request for `key`; returns its 1-based number.
    func next(_ key: String) -> Int {
        counts.withLockedValue { counts in
            counts[key, default: 0] += 1
            return counts[key, default: 0]
        }
    }
}
