import NIOCore

/// `/delay/{ms}`: answers 200 after that many milliseconds, scheduled on the event loop.
struct DelayEndpoint: Endpoint {
    /// Ten minutes: longer than any client timeout worth testing.
    static let maximumMilliseconds: Int64 = 600_000

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        guard let milliseconds = Int64(request.routeParameter), (0...Self.maximumMilliseconds).contains(milliseconds)
        else {
            return eventLoop.makeSucceededFuture(
                .badRequest(
                    "/delay/{ms} wants 0-\(Self.maximumMilliseconds) milliseconds, got \"\(request.routeParameter)\""))
        }
        return eventLoop.scheduleTask(in: .milliseconds(milliseconds)) {
            LabResponse.json(.object([("delayed_ms", .int(Int(milliseconds)))]))
        }.futureResult
    }
}
