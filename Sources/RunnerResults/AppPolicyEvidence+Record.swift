import RunnerAppTrust

// The JSON report's `evidence.app_policy` and `evidence.app_warnings` (docs/json-report.md),
// read back by `runner merge`. The keys are `runner app show --json`'s where they mean the same.

extension AppPolicyEvidence {
    /// The keys of an app policy's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case anchors
        case app
        case cleartext
        case forwardSecrecy = "forward_secrecy"
        /// The request URL's host.
        case host
        /// The name or address the rules were looked up for.
        case key
        case keyedOn = "keyed_on"
        case pinCheck = "pin_check"
        /// Base64 SHA-256 SPKI values (`sha1/BASE64` for OkHttp's SHA-1 pins).
        case pins
        case pinsEnforced = "pins_enforced"
        case pinsExpire = "pins_expire"
        case platform
        /// What the rules refused: `cleartext`, `pins`, `ats`.
        case refused
        /// `{file, line}` of the matched entry, null for the platform's defaults.
        case source
        case tlsMin = "tls_min"
        case whyNot = "why_not"
    }

    /// The keys of `source`.
    public enum SourceKey: String, CodingKey, CaseIterable, Sendable {
        case file
        case line
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .anchors: sink.values(policy.anchors)
            case .app: sink.value(app)
            case .cleartext: sink.flag(policy.cleartextPermitted)
            case .forwardSecrecy: sink.flag(policy.forwardSecrecy)
            case .host: sink.value(host)
            case .key: sink.value(self.key)
            case .keyedOn: sink.value(keyedOn.rawValue)
            case .pinCheck: sink.value(pinCheck)
            case .pins: sink.values(policy.pins + policy.sha1Pins.map { "sha1/" + $0 })
            case .pinsEnforced: sink.flag(policy.pinsEnforced)
            case .pinsExpire: sink.value(policy.pinsExpire)
            case .platform: sink.value(policy.platform.rawValue)
            case .refused: sink.values(refused.map(\.rawValue))
            case .source:
                if let source = policy.source {
                    sink.object(of: SourceKey.self) { key, sink in
                        switch key {
                        case .file: sink.value(source.file)
                        case .line: sink.number(source.line)
                        }
                    }
                } else {
                    sink.value(nil)
                }
            case .tlsMin: sink.value(policy.tlsMinimum)
            case .whyNot: sink.value(policy.pinsEnforced ? nil : policy.whyNotEnforced?.rawValue)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> AppPolicyEvidence {
        var evidence = AppPolicyEvidence(
            app: "", host: "", keyedOn: .name, key: "",
            policy: AppTrustPolicy(
                platform: .android, source: nil, cleartextPermitted: false, anchors: [], pins: [], pinsEnforced: false,
                whyNotEnforced: nil))
        for key in RecordKey.allCases {
            switch key {
            case .anchors: evidence.policy.anchors = try container.decode([String].self, forKey: key)
            case .app: evidence.app = try container.decode(String.self, forKey: key)
            case .cleartext: evidence.policy.cleartextPermitted = try container.decode(Bool.self, forKey: key)
            case .forwardSecrecy: evidence.policy.forwardSecrecy = try container.decodeIfPresent(Bool.self, forKey: key)
            case .host: evidence.host = try container.decode(String.self, forKey: key)
            case .key: evidence.key = try container.decode(String.self, forKey: key)
            case .keyedOn:
                let text = try container.decode(String.self, forKey: key)
                guard let keyedOn = KeyedOn(rawValue: text) else { throw container.recordProblem(key, "'\(text)' is not name or address") }
                evidence.keyedOn = keyedOn
            case .pinCheck: evidence.pinCheck = try container.decodeIfPresent(String.self, forKey: key)
            case .pins:
                let pins = try container.decode([String].self, forKey: key)
                evidence.policy.pins = pins.filter { !$0.hasPrefix("sha1/") }
                evidence.policy.sha1Pins = pins.filter { $0.hasPrefix("sha1/") }.map { String($0.dropFirst(5)) }
            case .pinsEnforced: evidence.policy.pinsEnforced = try container.decode(Bool.self, forKey: key)
            case .pinsExpire: evidence.policy.pinsExpire = try container.decodeIfPresent(String.self, forKey: key)
            case .platform:
                let text = try container.decode(String.self, forKey: key)
                guard let platform = AppTrustPlatform(rawValue: text) else { throw container.recordProblem(key, "'\(text)' is not a platform") }
                evidence.policy.platform = platform
            case .refused:
                evidence.refused = try container.decode([String].self, forKey: key).map { text throws in
                    guard let refusal = Refusal(rawValue: text) else { throw container.recordProblem(key, "'\(text)' is not a refusal") }
                    return refusal
                }
            case .source:
                guard container.contains(key), try !container.decodeNil(forKey: key) else { continue }
                let source = try container.nestedContainer(keyedBy: SourceKey.self, forKey: key)
                evidence.policy.source = AppTrustSource(
                    file: try source.decode(String.self, forKey: .file), line: try source.decode(Int.self, forKey: .line))
            case .tlsMin: evidence.policy.tlsMinimum = try container.decodeIfPresent(String.self, forKey: key)
            case .whyNot:
                guard let text = try container.decodeIfPresent(String.self, forKey: key) else { continue }
                guard let why = AppTrustPinsNotEnforced(rawValue: text) else { throw container.recordProblem(key, "'\(text)' is not a reason") }
                evidence.policy.whyNotEnforced = why
            }
        }
        return evidence
    }
}

extension AppWarning {
    /// The keys of an app warning's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case app
        case kind
        case message
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .app: sink.value(app)
            case .kind: sink.value(kind.rawValue)
            case .message: sink.value(message)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> AppWarning {
        var warning = AppWarning(kind: .pinsExpired, app: "", message: "")
        for key in RecordKey.allCases {
            switch key {
            case .app: warning.app = try container.decode(String.self, forKey: key)
            case .kind:
                let text = try container.decode(String.self, forKey: key)
                guard let kind = Kind(rawValue: text) else { throw container.recordProblem(key, "'\(text)' is not a warning kind") }
                warning.kind = kind
            case .message: warning.message = try container.decode(String.self, forKey: key)
            }
        }
        return warning
    }
}
