import Foundation
import RunnerVocabulary

/// `tls:` as one layer writes it (`defaults` or a scenario): nil means "not written here".
struct TLSLayer {
    var minVersion: Text?
    var maxVersion: Text?
    var ciphers: [Text]?
    var tls13Ciphers: [Text]?
    var curves: [Text]?
    var profile: TLSProfile?
    /// Where `tls:` is written, for checks of the whole (min above max, a profile left empty).
    var mark: YAMLMark

    /// This layer over `base`, key by key: a scenario's `tls:` keeps the defaults' keys it does
    /// not write.
    func over(_ base: TLSLayer?) -> TLSLayer {
        guard let base else { return self }
        return TLSLayer(
            minVersion: minVersion ?? base.minVersion, maxVersion: maxVersion ?? base.maxVersion,
            ciphers: ciphers ?? base.ciphers, tls13Ciphers: tls13Ciphers ?? base.tls13Ciphers,
            curves: curves ?? base.curves, profile: profile ?? base.profile, mark: mark)
    }
}

extension PlanDecoder {
    /// `tls:` — versions, cipher and group names (each checked against OpenSSL) and a profile.
    func decodeTLS(_ node: YAMLNode, site: @autoclosure () -> Site, context owner: Context) -> TLSLayer? {
        let context = owner.part(.tls)
        guard let fields = fields(of: node, site: site(), context: context, keys: Keys.tls) else { return nil }
        var layer = TLSLayer(mark: node.mark)
        for entry in fields.entries {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .minVersion: layer.minVersion = tlsVersion(entry.value, site: site())
            case .maxVersion: layer.maxVersion = tlsVersion(entry.value, site: site())
            case .ciphers:
                layer.ciphers = tlsNames(
                    entry.value, site: site(), what: "cipher", known: TLSNames.isCipher, candidates: TLSProfile.iosATS.ciphers,
                    example: "OpenSSL's name, as `openssl ciphers -v` lists them")
            case .tls13Ciphers:
                layer.tls13Ciphers = tlsNames(
                    entry.value, site: site(), what: "TLS 1.3 cipher", known: TLSNames.isTLS13Cipher,
                    candidates: Self.tls13Suites, example: "e.g. TLS_AES_128_GCM_SHA256")
            case .curves:
                layer.curves = tlsNames(
                    entry.value, site: site(), what: "curve", known: TLSNames.isGroup, candidates: Self.commonGroups,
                    example: "e.g. X25519, P-256")
            case .profile:
                layer.profile = choice(entry.value, for: site(), among: TLSProfile.names).flatMap { TLSProfile(rawValue: $0.value) }
            }
        }
        return layer
    }

    /// The TLS 1.3 suites and the groups a did-you-mean is drawn from.
    private static let tls13Suites = [
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_CCM_SHA256",
    ]
    private static let commonGroups = ["X25519", "X448", "P-256", "P-384", "P-521", "prime256v1", "secp384r1", "secp521r1"]

    /// `"1.0"` … `"1.3"`.
    private func tlsVersion(_ node: YAMLNode, site: @autoclosure () -> Site) -> Text? {
        let versions = TLSVersion.allCases.map(\.rawValue)
        guard let text = text(node, expected: "a TLS version", for: site()) else { return nil }
        guard versions.contains(text.value) else {
            report(at: text.mark, "expected a TLS version '1.0', '1.1', '1.2' or '1.3' for \(site()), got \(text.quoted)")
            return nil
        }
        return text
    }

    /// A list of names OpenSSL must know (a single name is a one-item list).
    private func tlsNames(
        _ node: YAMLNode, site: @autoclosure () -> Site, what: String, known: (String) -> Bool, candidates: [String],
        example: String
    ) -> [Text]? {
        guard let items = items(node, expected: "a list of \(what) names", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: node.mark, "expected at least one \(what) name for \(site()), got an empty list")
            return nil
        }
        var names: [Text] = []
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            guard known(text.value) else {
                let hint = Suggestion.closest(to: text.value, among: candidates).map { "; did you mean '\($0)'?" }
                    ?? " (\(example))"
                report(at: text.mark, "unknown \(what) \(text.quoted) for \(site())\(hint)")
                failed = true
                continue
            }
            names.append(text)
        }
        return failed ? nil : names
    }

    /// The client's TLS for a scenario: `layer` (already over the defaults') with its profile
    /// folded in; explicit keys narrow a profile, never widen it. Reported at `scenario`.
    func clientTLS(_ layer: TLSLayer?, scenario: @autoclosure () -> String) -> ClientTLS {
        guard let layer else { return ClientTLS() }
        var minVersion = layer.minVersion.flatMap { TLSVersion(rawValue: $0.value) }
        var cipherList = Self.joined(layer.ciphers)
        if let profile = layer.profile {
            minVersion = max(minVersion ?? profile.minVersion, profile.minVersion)
            if let written = layer.ciphers {
                let allowed = written.map(\.value).filter(profile.ciphers.contains)
                cipherList = allowed.joined(separator: ":")
                if allowed.isEmpty, let first = written.first {
                    report(
                        at: first.mark,
                        "none of the ciphers of \(scenario()) is one profile '\(profile.rawValue)' allows; its TLS 1.2 ciphers are \(profile.ciphers.joined(separator: ", "))")
                }
            } else {
                // The profile's own list, joined once for the plan, not once a scenario.
                cipherList = profile.cipherList
            }
        }
        let tls = ClientTLS(
            minVersion: minVersion, maxVersion: layer.maxVersion.flatMap { TLSVersion(rawValue: $0.value) },
            cipherList: cipherList, tls13CipherList: Self.joined(layer.tls13Ciphers), curveList: Self.joined(layer.curves),
            profile: layer.profile)
        if let minVersion = tls.minVersion, let maxVersion = tls.maxVersion, minVersion > maxVersion {
            report(
                at: layer.maxVersion?.mark ?? layer.mark,
                "max_version \(maxVersion.rawValue) is below min_version \(minVersion.rawValue)\(layer.profile != nil && layer.minVersion == nil ? " (from the profile)" : "") for \(scenario())")
        }
        return tls
    }

    /// Names as OpenSSL's lists write them (`A:B`); "" for none.
    private static func joined(_ names: [Text]?) -> String {
        guard let names, !names.isEmpty else { return "" }
        return names.lazy.map(\.value).joined(separator: ":")
    }

    /// `expect.certificate.pins`: `sha256/` and the base64 of a SHA-256 (32 bytes) each.
    func decodePins(_ node: YAMLNode, site: @autoclosure () -> Site) -> [[UInt8]]? {
        guard let items = items(node, expected: "a list of pins ('sha256/BASE64')", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: node.mark, "expected at least one pin for \(site()), got an empty list")
            return nil
        }
        var pins: [[UInt8]] = []
        for item in items {
            guard let text = string(item, for: site()) else { return nil }
            // Plans repeat a host's pins on each of its scenarios: each text is decoded once.
            if let digest = pinDigests[text.value] {
                pins.append(digest)
                continue
            }
            let prefix = "sha256/"
            guard text.value.hasPrefix(prefix),
                let digest = Data(base64Encoded: String(text.value.dropFirst(prefix.count))), digest.count == 32
            else {
                report(
                    at: text.mark,
                    "expected a pin 'sha256/' followed by the base64 of a SHA-256 (32 bytes) of a SubjectPublicKeyInfo for \(site()), got \(text.quoted)")
                return nil
            }
            let bytes = Array(digest)
            pinDigests[text.value] = bytes
            pins.append(bytes)
        }
        return pins
    }

    /// `expect.tls`: the negotiated `version` and a matcher for the `cipher`.
    func decodeTLSExpectation(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> TLSExpectation? {
        let context = scenario.part(.expectTLS)
        guard let fields = fields(
            of: entry.value, site: Site(key: "tls", scenario.part(.expect)), context: context, ownerMark: entry.keyMark,
            keys: Keys.tlsExpect)
        else { return nil }
        var expectation = TLSExpectation()
        for field in fields.entries {
            func site() -> Site { Site(key: field.key, context) }
            switch field.name {
            case .version:
                expectation.version = tlsVersion(field.value, site: site()).flatMap { TLSVersion(rawValue: $0.value) }
            case .cipher:
                expectation.cipher = decodeMatcher(
                    field.value, site: site(), context: scenario.part(.expectTLS), ownerMark: field.keyMark, allowAbsent: false)
            }
        }
        return expectation
    }
}
