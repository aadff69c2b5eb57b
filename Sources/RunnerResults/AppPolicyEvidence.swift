import RunnerAppTrust

/// The trust rules one app's HTTP stack applied to a result (`app:`): which name it keyed them
/// on under the result's strategy (the URL's host: the real name, or the IP under IP direct),
/// the policy its files give that name, and what the pins said of the chain.
public struct AppPolicyEvidence: Sendable, Equatable {
    /// What the stack picks its rules by (app-trust facts, section 1).
    public enum KeyedOn: String, Sendable, Equatable {
        case name
        case address
    }

    /// What the rules refused of the request (each an `app-policy` problem of the result).
    public enum Refusal: String, Sendable, Equatable, CaseIterable {
        /// An `http://` request the app does not send.
        case cleartext
        /// Pins that apply and match no certificate of the chain.
        case pins
        /// A floor of App Transport Security (TLS version, forward secrecy, key, signature).
        case ats
        /// A chain whose root none of the app's trust anchors holds (Android).
        case anchors
    }

    /// The app's name in the plan.
    public var app: String
    /// The request URL's host (the name, whatever the rules were keyed on).
    public var host: String
    public var keyedOn: KeyedOn
    /// The name or address the rules were looked up for.
    public var key: String
    public var policy: AppTrustPolicy
    /// `matched sha256/…`, `no pin matched`, or nil when no chain was checked against them.
    public var pinCheck: String?
    /// What the rules refused, in the order checked; empty when nothing (or nothing was judged).
    public var refused: [Refusal]

    public init(
        app: String, host: String, keyedOn: KeyedOn, key: String, policy: AppTrustPolicy, pinCheck: String? = nil, refused: [Refusal] = []
    ) {
        self.app = app
        self.host = host
        self.refused = refused
        self.keyedOn = keyedOn
        self.key = key
        self.policy = policy
        self.pinCheck = pinCheck
    }

    /// `shop-android (android) for 203.0.113.7 (the address): base-config at nsc.xml:3; cleartext no;
    /// anchors system; pins none (no-pins)`: the evidence line every report shows.
    public var summary: String {
        var parts: [String] = []
        parts.append(policy.source.map { "\($0)" } ?? (policy.platform == .okhttp ? "no pattern matches" : "the platform's defaults"))
        // OkHttp's pinner holds pins alone: cleartext and anchors are the Network Security Config's.
        if policy.platform != .okhttp {
            parts.append("cleartext " + (policy.cleartextPermitted ? "yes" : "no"))
            parts.append("anchors " + policy.anchors.joined(separator: ", "))
        }
        if policy.pins.isEmpty && policy.sha1Pins.isEmpty {
            parts.append("pins none")
        } else {
            let count = policy.pins.count + policy.sha1Pins.count
            var pins = "pins \(count)" + (policy.pinsExpire.map { " until \($0)" } ?? "")
            pins += policy.pinsEnforced ? " enforced" : " not enforced (\(policy.whyNotEnforced?.rawValue ?? "no-pins"))"
            if let pinCheck { pins += ": \(pinCheck)" }
            parts.append(pins)
        }
        if let minimum = policy.tlsMinimum {
            parts.append("ATS TLS ≥ \(minimum)" + (policy.forwardSecrecy == true ? ", forward secrecy" : ""))
        }
        let keyed = keyedOn == .address ? "\(key) (keyed on the address)" : key
        return "\(app) (\(policy.platform.rawValue)) for \(keyed): " + parts.joined(separator: "; ")
    }
}
