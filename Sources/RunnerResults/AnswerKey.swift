/// Whose answer a domain map gave: the plan, the map, the host and the client population it was
/// asked as (nil: this machine). The one identity of an answer: a run's resolver and `serve`'s
/// memory keep answers under it (with how the question was put: `ResolutionKey` in the engine),
/// the state file records them under it, and a `StateRecording` names by it the answers the file
/// could not record.
public struct AnswerKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The plan's name (`name:`, or its file's).
    public var plan: String
    public var map: String
    public var host: String
    public var client: String?

    public init(plan: String, map: String, host: String, client: String?) {
        self.plan = plan
        self.map = map
        self.host = host
        self.client = client
    }

    /// Hashes the host and client only: the keys of one table (a map's answers, a run's cache)
    /// mostly share their plan and map, and hashing those too cost two more strings a lookup.
    /// Equal keys still hash alike; keys that differ only in plan or map share a hash, and
    /// equality tells them apart.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(client)
    }

    /// `MAP HOST`, with ` as CLIENT` for a population.
    public var description: String {
        guard let client else { return "\(map) \(host)" }
        return "\(map) \(host) as \(client)"
    }
}

// The JSON report's `runner.state.not_recorded` entries (docs/json-report.md): keys declared in
// key order, a `null` client written rather than left out.
extension AnswerKey {
    enum CodingKeys: String, CodingKey {
        case client
        case host
        case map
        case plan
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // `null` for this machine: every documented key is always present.
        try container.encode(client, forKey: .client)
        try container.encode(host, forKey: .host)
        try container.encode(map, forKey: .map)
        try container.encode(plan, forKey: .plan)
    }
}
