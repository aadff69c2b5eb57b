import Foundation

/// An address a map's HTTPDNS service returned for a host, as the state remembers it: for whom
/// (the client population asked as; nil: this machine), and when it was first and last returned.
public struct ReturnedAddress: Sendable, Equatable {
    /// The plan's name (`name:`, or its file's).
    public var plan: String
    public var map: String
    public var host: String
    public var client: String?
    public var address: String
    /// 4 or 6.
    public var family: Int
    public var firstReturned: Date
    public var lastReturned: Date

    public init(
        plan: String, map: String, host: String, client: String?, address: String, family: Int, firstReturned: Date,
        lastReturned: Date
    ) {
        self.plan = plan
        self.map = map
        self.host = host
        self.client = client
        self.address = address
        self.family = family
        self.firstReturned = firstReturned
        self.lastReturned = lastReturned
    }
}
