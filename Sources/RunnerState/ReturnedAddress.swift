import Foundation
import RunnerResults

/// An address a map's HTTPDNS service returned for a host, as the state remembers it: in whose
/// answer (`AnswerKey`: the plan, map, host and client population asked as), and when it was
/// first and last returned.
public struct ReturnedAddress: Sendable, Equatable {
    /// The answer that returned it.
    public var answer: AnswerKey
    public var address: String
    /// 4 or 6.
    public var family: Int
    public var firstReturned: Date
    public var lastReturned: Date

    public init(answer: AnswerKey, address: String, family: Int, firstReturned: Date, lastReturned: Date) {
        self.answer = answer
        self.address = address
        self.family = family
        self.firstReturned = firstReturned
        self.lastReturned = lastReturned
    }

    /// The plan's name (`name:`, or its file's).
    public var plan: String { answer.plan }
    public var map: String { answer.map }
    public var host: String { answer.host }
    /// The population asked as; nil: this machine.
    public var client: String? { answer.client }
}
