import Foundation
import RunnerAppTrust
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// A result checked as each app of its scenario (`app:`) would check it: the rules the app's
/// stack applies, looked up by the name it keys them on under the result's strategy, and what
/// they refuse (problems of kind `app-policy`) or warn of. Pure: no I/O.
///
/// Every stack picks its rules by the host of the request's URL (app-trust facts, section 1):
/// under `trust-override` that host is the IP, so Android's domain-config and pins, OkHttp's
/// pins and ATS's exceptions are the address's; an iOS app's own trust code checks the real
/// name, so its pins stay the name's. Under `sni-resolve` and `system` the URL keeps the name.
/// (`header-only` is plain HTTP here: only the cleartext rule applies, keyed on the IP.)
package enum AppPolicyVerdict {
    /// What an app's stack keys one kind of rule on, and the key.
    package struct Lookup: Equatable {
        package var keyedOn: AppPolicyEvidence.KeyedOn
        package var key: String
    }

    /// What the rules of `platform` are looked up by: its pins (`pins`) or everything else.
    package static func lookup(
        _ platform: AppTrustPlatform, pins: Bool, strategy: StrategyKind, host: String, ip: String?
    ) -> Lookup {
        guard let ip else { return Lookup(keyedOn: .name, key: host) }
        switch strategy {
        case .headerOnly: return Lookup(keyedOn: .address, key: ip)
        case .trustOverride:
            // iOS trust-override code evaluates the chain with SecPolicyCreateSSL(true, real name).
            if platform == .ios, pins { return Lookup(keyedOn: .name, key: host) }
            return Lookup(keyedOn: .address, key: ip)
        case .sniResolve, .system, .auto: return Lookup(keyedOn: .name, key: host)
        }
    }

    /// The policy of each app and platform of `apps` for a request to `url` under `strategy`
    /// pinned to `ip`, with the IP gap marked: pins the name has that the address does not.
    package static func policies(
        apps: [AppDefinition], url: PlanURL, strategy: StrategyKind, ip: String?, now: Date
    ) -> [AppPolicyEvidence] {
        var evidence: [AppPolicyEvidence] = []
        for app in apps {
            for platform in AppTrustPlatform.allCases {
                let rules = lookup(platform, pins: false, strategy: strategy, host: url.host, ip: ip)
                let pinRules = lookup(platform, pins: true, strategy: strategy, host: url.host, ip: ip)
                guard var policy = policy(of: app, platform, for: rules.key, now: now) else { continue }
                if pinRules != rules, let named = self.policy(of: app, platform, for: pinRules.key, now: now) {
                    // ATS by the address, the pins by the name (iOS under trust-override).
                    policy.adoptPins(of: named)
                } else if rules.keyedOn == .address, !policy.pinsEnforced,
                    let named = self.policy(of: app, platform, for: url.host, now: now), named.pinsEnforced
                {
                    // The IP gap: the name's pins are off for a request sent to the address.
                    policy.adoptPins(of: named)
                    policy.pinsEnforced = false
                    policy.whyNotEnforced = .keyedOnAddress
                }
                evidence.append(AppPolicyEvidence(app: app.name, host: url.host, keyedOn: rules.keyedOn, key: rules.key, policy: policy))
            }
        }
        return evidence
    }

    /// The policy `app` has on `platform` for `key`; nil when the app is not on that platform.
    private static func policy(of app: AppDefinition, _ platform: AppTrustPlatform, for key: String, now: Date) -> AppTrustPolicy? {
        switch platform {
        case .android:
            guard let android = app.android else { return nil }
            return android.config.policy(for: key, targetSDK: android.targetSDK, now: now)
        case .ios:
            guard let ios = app.ios else { return nil }
            return ios.settings.trustKitPolicy(for: key, iOSVersion: ios.version, now: now)
                .flatMap { $0.pins.isEmpty ? nil : $0 } ?? ios.settings.policy(for: key, iOSVersion: ios.version)
        case .okhttp:
            guard let okhttp = app.okhttp else { return nil }
            var policy = okhttp.policy(for: key)
            // The pins are written in the plan: the source is the pattern's line there.
            if let source = policy.source, app.okhttpPatternLocations.indices.contains(source.line - 1) {
                let location = app.okhttpPatternLocations[source.line - 1]
                policy.source = AppTrustSource(file: location.file, line: location.line)
            }
            return policy
        }
    }

    /// What the policies refuse of the final response (`tls` nil over plain HTTP), and what they
    /// warn of; each policy's pin check is filled in.
    package static func judge(
        _ policies: inout [AppPolicyEvidence], apps: [AppDefinition], url: PlanURL, strategy: StrategyKind, tls: TLSSession?,
        now: Date
    ) -> (problems: [Problem], warnings: [AppWarning]) {
        var problems: [Problem] = []
        var warnings: [AppWarning] = []
        let chain = tls.map { session in
            session.chain.enumerated().map { index, certificate in
                AppTrustChainCertificate(spkiSHA256: String(certificate.pin.dropFirst("sha256/".count)), isLeaf: index == 0)
            }
        } ?? []
        for index in policies.indices {
            let entry = policies[index]
            let policy = entry.policy
            let app = apps.first { $0.name == entry.app }
            let who = "app \(entry.app) (\(policy.platform.rawValue))"
            let whereWritten = policy.source.map { " (\($0))" } ?? " (the platform's default)"
            if url.scheme == .http, !policy.cleartextPermitted, policy.platform != .okhttp {
                policies[index].refused.append(.cleartext)
                problems.append(Problem(
                    subject: "\(who) cleartext", expected: "https for \(entry.key)\(whereWritten)",
                    actual: "an http:// request, which the app refuses to send", kind: .appPolicy))
            }
            if let tls, !chain.isEmpty {
                let anchor = policy.platform == .android ? trustingAnchor(of: policy, app: app, session: tls) : .unknown
                if anchor == .notHeld, let root = tls.chain.last {
                    policies[index].refused.append(.anchors)
                    problems.append(Problem(
                        subject: "\(who) trust anchors for \(entry.key)",
                        expected: "a chain ending at a CA its anchors (\(policy.anchors.joined(separator: ", "))) hold\(whereWritten)",
                        actual: "a chain ending at \(root.subject) (\(root.pin)): the app does not trust it", kind: .appPolicy))
                }
                let verifiedBy: String? = if case .heldBy(let name) = anchor { name } else { nil }
                switch policy.check(chain: chain, anchor: verifiedBy) {
                case .matched(let pin):
                    policies[index].pinCheck = "matched \(pin)"
                case .notMatched:
                    policies[index].pinCheck = "no pin matched"
                    policies[index].refused.append(.pins)
                    let served = tls.chain.map { "\($0.pin) (\($0.subject))" }.joined(separator: ", ")
                    problems.append(Problem(
                        subject: "\(who) pins for \(entry.key)",
                        expected: "a chain certificate matching one of \(pinList(policy))\(whereWritten)",
                        actual: "\(tls.chainVerified ? "chain" : "chain as presented (not verified)") \(served): the app refuses this edge",
                        kind: .appPolicy))
                case .notChecked:
                    break
                }
                if policy.platform == .ios, policy.tlsMinimum != nil {
                    let floors = atsProblems(policy, session: tls, who: who, whereWritten: whereWritten)
                    if !floors.isEmpty { policies[index].refused.append(.ats) }
                    problems += floors
                }
                if policy.pinsEnforced, policy.pinsOnlyTheLeaf(chain: chain) {
                    warnings.append(AppWarning(
                        kind: .noBackupPin, app: entry.app,
                        message: "the \(policy.platform.rawValue) pins for \(entry.key)\(whereWritten) match only the leaf served now: "
                            + "a new key on this edge fails every connection of the app"))
                }
            }
            warnings += expiryWarnings(entry, app: app, now: now, whereWritten: whereWritten)
            // Pins are a TLS matter: over plain HTTP there is no chain for them to leave unchecked.
            if url.scheme == .https, policy.whyNotEnforced == .keyedOnAddress, !policy.pins.isEmpty || !policy.sha1Pins.isEmpty {
                warnings.append(AppWarning(
                    kind: .pinsNotApplied, app: entry.app,
                    message: "the \(policy.platform.rawValue) pins for \(url.host) do not apply to this request (\(strategy.rawValue) "
                        + "sends it to \(url.scheme.rawValue)://\(entry.key.contains(":") ? "[\(entry.key)]" : entry.key)): "
                        + "the app accepts any chain its trust allows"))
            }
        }
        return (problems, warnings)
    }

    /// Which of an Android policy's anchors holds the verified chain's root.
    package enum TrustingAnchor: Equatable {
        case heldBy(String)
        /// None of them: the app refuses the chain.
        case notHeld
        /// Not known here: the chain is not verified, or an anchor's certificates are unknown
        /// (`user`: the device's; `@raw` without the app's raw folder).
        case unknown
    }

    /// The anchor of `policy` (this machine's store for `system`, the file for `@raw/NAME`)
    /// that holds the root of the chain verification built.
    package static func trustingAnchor(of policy: AppTrustPolicy, app: AppDefinition?, session: TLSSession) -> TrustingAnchor {
        guard session.chainVerified, let root = session.chain.last else { return .unknown }
        let pin = String(root.pin.dropFirst("sha256/".count))
        var unknown = false
        for anchor in policy.anchors {
            let keys: [String]?
            switch anchor {
            case "system": keys = AnchorKeys.system.contains(pin) ? [pin] : []
            case "user": keys = nil
            default: keys = app?.android?.rawAnchorKeys[anchor]
            }
            guard let keys else {
                unknown = true
                continue
            }
            if keys.contains(pin) { return .heldBy(anchor) }
        }
        return unknown ? .unknown : .notHeld
    }

    /// `sha256/…, sha256/…`: a policy's pins as OkHttp writes them.
    private static func pinList(_ policy: AppTrustPolicy) -> String {
        (policy.pins.map { "sha256/" + $0 } + policy.sha1Pins.map { "sha1/" + $0 }).joined(separator: ", ")
    }

    /// ATS's floors for an iOS app: the TLS version, forward secrecy, the leaf's key and signature.
    private static func atsProblems(_ policy: AppTrustPolicy, session: TLSSession, who: String, whereWritten: String) -> [Problem] {
        var problems: [Problem] = []
        if let minimum = policy.tlsMinimum, let floor = TLSVersion(rawValue: minimum) {
            let version = session.version
            if version.map({ $0 < floor }) ?? true {
                problems.append(Problem(
                    subject: "\(who) ATS TLS version", expected: "TLS \(minimum) or later\(whereWritten)",
                    actual: version.map { "TLS \($0.rawValue)" } ?? "an unknown version", kind: .appPolicy))
            }
        }
        if policy.forwardSecrecy == true, !session.forwardSecret {
            problems.append(Problem(
                subject: "\(who) ATS forward secrecy", expected: "an ECDHE cipher\(whereWritten)", actual: session.cipher, kind: .appPolicy))
        }
        if let leaf = session.chain.first {
            for rule in TLSProfile.iosATS.brokenLeafRules(leaf) {
                problems.append(Problem(subject: "\(who) ATS certificate", expected: rule.expected, actual: rule.actual, kind: .appPolicy))
            }
        }
        return problems
    }

    /// A pin-set past its expiry (pins off), or expiring within the app's `pin_warn`.
    private static func expiryWarnings(
        _ entry: AppPolicyEvidence, app: AppDefinition?, now: Date, whereWritten: String
    ) -> [AppWarning] {
        let policy = entry.policy
        guard let expiry = policy.pinsExpire, let expiresAt = policy.pinsExpiry else { return [] }
        let platform = policy.platform.rawValue
        if policy.whyNotEnforced == .expired {
            return [AppWarning(
                kind: .pinsExpired, app: entry.app,
                message: "the \(platform) pins for \(entry.key)\(whereWritten) expired on \(expiry): they are off, "
                    + "and the app accepts any chain its anchors trust")]
        }
        let warning = app?.pinWarning ?? AppDefinition.defaultPinWarning
        let left = expiresAt.timeIntervalSince(now)
        guard left < Double(warning.components.seconds) else { return [] }
        return [AppWarning(
            kind: .pinsExpiring, app: entry.app,
            message: "the \(platform) pins for \(entry.key)\(whereWritten) expire on \(expiry), in \(RetainedEvidence.spoken(.seconds(max(0, Int(left))))): "
                + "after that the app accepts any chain its anchors trust")]
    }
}

extension AppTrustPolicy {
    /// Takes `other`'s pins, their expiry and whether they are enforced (and why not).
    fileprivate mutating func adoptPins(of other: AppTrustPolicy) {
        pins = other.pins
        leafPins = other.leafPins
        caPins = other.caPins
        sha1Pins = other.sha1Pins
        pinsExpire = other.pinsExpire
        pinsEnforced = other.pinsEnforced
        whyNotEnforced = other.whyNotEnforced
    }
}
