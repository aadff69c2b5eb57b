import Foundation

/// One scenario of a plan made from a capture: a distinct request, what its answer must look
/// like on the next run, and where it sits in a flow.
public struct DraftScenario: Sendable, Equatable {
    public var name: String
    /// Comment lines written above it: which entries it came from, what was merged or folded.
    public var comments: [String]
    public var method: String
    public var url: PlanText
    public var headers: [DraftHeader]
    public var body: DraftBody?
    /// `false` for a redirect the app did not follow (its 3xx is what is expected).
    public var followRedirects: Bool?
    /// Set when a folded chain is longer than the runner's default of 10 hops.
    public var maxRedirects: Int?
    /// `system` when the capture recorded no address for a host the scenario reaches.
    public var domains: String?
    public var expect: DraftExpectation
    public var captures: [DraftCapture]
    /// The scenario whose captures (and cookie jar) this one uses.
    public var after: String?
    /// The host of the first request, lower case.
    public var host: String
    /// Every host the request reaches (redirects included).
    public var hosts: [String]
}

/// One request header as the plan sends it.
public struct DraftHeader: Sendable, Equatable {
    public var name: String
    public var value: PlanText
}

/// A request body as the plan carries it.
public enum DraftBody: Sendable, Equatable {
    /// `body:`: UTF-8 text, with references where secrets or captured values were.
    case text(PlanText)
    /// `body_file:`: the bytes, written to `name` in the bodies folder.
    case file(name: String, bytes: Data)
    /// `body_base64:` (when no bodies folder is given: the plan goes to standard output).
    case base64(Data)
}

/// What the next run must see: what held in the recording and will hold again.
public struct DraftExpectation: Sendable, Equatable {
    /// The final status; 304 also accepts 200 (a validator can go stale).
    public var statuses: [Int]
    /// `type/subtype` of the final answer's `Content-Type`, lower case.
    public var mediaType: String?
    /// JSON paths of the top-level keys the recorded JSON answer had (`$.token`).
    public var jsonKeys: [String]
}

/// A value a later scenario sends, taken from this scenario's answer.
public struct DraftCapture: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A JSONPath to a scalar of the JSON answer.
        case json(String)
        /// A response header's first value.
        case header(String)
    }

    public var name: String
    public var source: Source
    public var secret: Bool
}
