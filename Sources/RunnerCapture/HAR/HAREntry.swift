import Foundation

/// One request of a capture, with its response when the tool recorded one.
public struct HAREntry: Sendable, Equatable {
    /// The entry's place in `log.entries`, from 0 (as errors count).
    public var index: Int
    /// `startedDateTime` as written.
    public var startedDateTimeText: String?
    /// `startedDateTime` parsed (ISO 8601, with or without fractional seconds); nil when it does not parse.
    public var startedDateTime: Date?
    public var request: HARRequest
    public var response: HARResponse?
    public var serverIPAddress: HARServerAddress?
    /// Set when the request got no answer worth repeating (status 0, `_error`, no response).
    public var failure: HARFailure?

    public init(
        index: Int, startedDateTimeText: String?, startedDateTime: Date?, request: HARRequest, response: HARResponse?,
        serverIPAddress: HARServerAddress?, failure: HARFailure?
    ) {
        self.index = index
        self.startedDateTimeText = startedDateTimeText
        self.startedDateTime = startedDateTime
        self.request = request
        self.response = response
        self.serverIPAddress = serverIPAddress
        self.failure = failure
    }

    /// Whether the request failed (status 0, `_error`, or no response); `failure` says why.
    public var failed: Bool { failure != nil }
}
