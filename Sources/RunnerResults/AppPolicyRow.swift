import RunnerAppTrust
import RunnerVocabulary

/// A row of `runner app show`: the rules one app's stack applies on one platform to a host
/// under one strategy, for one address where the stack keys them on the address (nil where it
/// keys them on the name).
public struct AppPolicyRow: Sendable, Equatable, Encodable {
    /// The plan's file.
    public var plan: String
    public var host: String
    public var strategy: StrategyKind
    public var address: String?
    public var policy: AppPolicyEvidence

    public init(plan: String, host: String, strategy: StrategyKind, address: String?, policy: AppPolicyEvidence) {
        self.plan = plan
        self.host = host
        self.strategy = strategy
        self.address = address
        self.policy = policy
    }

    /// plan-format.md's `runner app show --json` keys, each present (`null` where it does not apply).
    enum CodingKeys: String, CodingKey {
        case address, anchors, app, cleartext, forwardSecrecy = "forward_secrecy", host, keyedOn = "keyed_on", pins
        case pinsEnforced = "pins_enforced", pinsExpire = "pins_expire", plan, platform, source, strategy, tlsMin = "tls_min"
        case whyNot = "why_not"
    }

    enum SourceKeys: String, CodingKey {
        case file, line
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let rules = policy.policy
        try container.encode(address, forKey: .address)
        try container.encode(rules.anchors, forKey: .anchors)
        try container.encode(policy.app, forKey: .app)
        try container.encode(rules.cleartextPermitted, forKey: .cleartext)
        try container.encode(rules.forwardSecrecy, forKey: .forwardSecrecy)
        try container.encode(host, forKey: .host)
        try container.encode(policy.keyedOn.rawValue, forKey: .keyedOn)
        try container.encode(rules.pins + rules.sha1Pins.map { "sha1/" + $0 }, forKey: .pins)
        try container.encode(rules.pinsEnforced, forKey: .pinsEnforced)
        try container.encode(rules.pinsExpire, forKey: .pinsExpire)
        try container.encode(plan, forKey: .plan)
        try container.encode(rules.platform.rawValue, forKey: .platform)
        if let source = rules.source {
            var nested = container.nestedContainer(keyedBy: SourceKeys.self, forKey: .source)
            try nested.encode(source.file, forKey: .file)
            try nested.encode(source.line, forKey: .line)
        } else {
            try container.encodeNil(forKey: .source)
        }
        try container.encode(strategy.rawValue, forKey: .strategy)
        try container.encode(rules.tlsMinimum, forKey: .tlsMin)
        try container.encode(rules.pinsEnforced ? nil : rules.whyNotEnforced?.rawValue, forKey: .whyNot)
    }
}
