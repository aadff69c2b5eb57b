/// `domains:`: named maps, each a static IP list or an HTTPDNS service.
extension PlanDecoder {
    func decodeDomainMaps(_ entry: FieldEntry<TopLevelKey>) -> [DomainMapSpec] {
        guard let pairs = namedEntries(of: entry.value, site: Site(key: "domains", Context(.topLevel))) else { return [] }

        // Names first: fallbacks and scenarios may name a map declared later.
        for pair in pairs where pair.key != systemDomainMapName {
            domainMapNames.append(pair.key)
            domainMapNameSet.insert(pair.key)
        }

        var maps: [DomainMapSpec] = []
        var fallbackMarks: [String: YAMLMark] = [:]
        for pair in pairs {
            let name = pair.key
            let context = Context(.domainMap(name))
            if name == systemDomainMapName {
                report(
                    at: pair.keyMark,
                    "'system' is the implicit domain map (the machine's resolver) and cannot be declared; choose another name"
                )
                continue
            }
            guard let fields = fields(
                of: pair.value, site: Site(subject: "domain map '\(name)'", Context(.domains)), context: context,
                ownerMark: pair.keyMark, keys: Keys.domainMap)
            else { continue }
            if let staticEntry = fields[.static], let httpdnsEntry = fields[.httpdns] {
                let second = staticEntry.keyMark < httpdnsEntry.keyMark ? httpdnsEntry : staticEntry
                report(at: second.keyMark, "domain map '\(name)' has both 'static' and 'httpdns'; give exactly one")
                continue
            }
            let location = location(pair.keyMark)
            if let staticEntry = fields[.static] {
                if let entries = decodeStaticList(staticEntry, context: context.part(.static)) {
                    maps.append(DomainMapSpec(name: name, source: .staticList(entries), location: location))
                }
            } else if let httpdnsEntry = fields[.httpdns] {
                if let (spec, fallbackMark) = decodeHTTPDNS(httpdnsEntry, mapName: name, context: context.part(.httpdns)) {
                    maps.append(DomainMapSpec(name: name, source: .httpdns(spec), location: location))
                    if let fallbackMark { fallbackMarks[name] = fallbackMark }
                }
            } else {
                report(at: pair.keyMark, "domain map '\(name)' needs exactly one of 'static' or 'httpdns'")
            }
        }
        checkFallbackCycles(maps, marks: fallbackMarks)
        return maps
    }

    private func decodeStaticList(_ entry: FieldEntry<DomainMapKey>, context: Context) -> [DomainMapSpec.StaticEntry]? {
        guard let hosts = namedEntries(of: entry.value, site: Site(key: "static", Context(context.owner)))
        else { return nil }
        var result: [DomainMapSpec.StaticEntry] = []
        var seen: [String: YAMLMark] = [:]
        var failed = false
        for host in hosts {
            let name = host.key.lowercased()
            guard Self.isHostName(name) else {
                report(at: host.keyMark, "'\(host.key)' is not a host name \(context)")
                failed = true
                continue
            }
            if let first = seen[name] {
                report(at: host.keyMark, "duplicate host '\(name)' \(context) (first at \(first.text))")
                failed = true
                continue
            }
            seen[name] = host.keyMark
            func site() -> Site { Site(kind: "host", name: name, context) }
            guard let items = items(host.value, expected: "a list of IP addresses", for: site()) else {
                failed = true
                continue
            }
            guard !items.isEmpty else {
                report(at: host.value.mark, "expected at least one IP address for \(site()), got an empty list")
                failed = true
                continue
            }
            var addresses: [IPAddress] = []
            for item in items {
                guard let text = string(item, for: Site(kind: "an IP address of host", name: name, context)) else {
                    failed = true
                    continue
                }
                guard let address = IPAddress(text.value) else {
                    report(at: text.mark, "\(text.quoted) is not an IP address (host '\(name)' \(context))")
                    failed = true
                    continue
                }
                addresses.append(address)
            }
            result.append(DomainMapSpec.StaticEntry(host: name, addresses: addresses))
        }
        return failed ? nil : result
    }

    private func decodeHTTPDNS(
        _ entry: FieldEntry<DomainMapKey>, mapName: String, context: Context
    ) -> (HTTPDNSSpec, fallbackMark: YAMLMark?)? {
        guard let fields = fields(
            of: entry.value, site: Site(key: "httpdns", Context(context.owner)), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdns)
        else { return nil }
        var failed = false

        var format: HTTPDNSSpec.Format?
        if let entry = required(.format, in: fields) {
            let options = HTTPDNSSpec.Format.allCases.map(\.rawValue)
            format = choice(entry.value, for: Site(key: "format", context), among: options)
                .flatMap { HTTPDNSSpec.Format(rawValue: $0.value) }
        }

        var template: String?
        if let entry = required(.url, in: fields), let text = string(entry.value, for: Site(key: "url", context)) {
            func site() -> Site { Site(key: "url", context) }
            if !text.value.contains("{host}") {
                report(at: text.mark, "expected a URL with '{host}' where the host name goes for \(site()), got \(text.quoted)")
            } else if PlanURL.parse(text.value.replacingAll("{host}", with: "example.com")) == nil {
                report(at: text.mark, "expected an absolute http:// or https:// URL for \(site()), got \(text.quoted)")
            } else {
                template = text.value
            }
        }

        var timeout: Duration = .seconds(2)
        if let entry = fields[.timeout] {
            if let value = duration(entry.value, for: Site(key: "timeout", context)) { timeout = value } else { failed = true }
        }

        var fallback: HTTPDNSSpec.Fallback = .none
        var fallbackMark: YAMLMark?
        if let entry = fields[.fallback], let text = string(entry.value, for: Site(key: "fallback", context)) {
            switch text.value {
            case "none": fallback = .none
            case systemDomainMapName: fallback = .system
            case mapName:
                report(at: text.mark, "domain map '\(mapName)' cannot fall back to itself; use 'none', 'system' or another map")
                failed = true
            default:
                if domainMapNameSet.contains(text.value) {
                    fallback = .map(text.value)
                    fallbackMark = text.mark
                } else {
                    let hint = Suggestion.closest(to: text.value, among: domainMapNames + ["none", "system"])
                        .map { "; did you mean '\($0)'?" } ?? "; expected 'none', 'system' or a declared map"
                    report(at: text.mark, "unknown domain map \(text.quoted) for 'fallback' \(context)\(hint)")
                    failed = true
                }
            }
        } else if fields.has(.fallback) {
            failed = true
        }

        var auth: HTTPDNSAuth?
        if let entry = fields[.auth] {
            auth = decodeHTTPDNSAuth(entry, format: format, httpdnsContext: context)
            if auth == nil { failed = true }
        }

        guard !failed, let format, let template else { return nil }
        return (
            HTTPDNSSpec(format: format, urlTemplate: template, timeout: timeout, fallback: fallback, auth: auth),
            fallbackMark
        )
    }

    /// `auth:` of an httpdns map: a scheme that suits the map's format, its secret or key
    /// (only as `${secret:NAME}`), and for the signing schemes how long a signature is valid.
    /// Nil (reported) when anything is wrong; each key is checked even when another is not.
    private func decodeHTTPDNSAuth(
        _ entry: FieldEntry<HTTPDNSKey>, format: HTTPDNSSpec.Format?, httpdnsContext: Context
    ) -> HTTPDNSAuth? {
        let context = httpdnsContext.part(.httpdnsAuth)
        guard let fields = fields(
            of: entry.value, site: Site(key: "auth", httpdnsContext), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdnsAuth)
        else { return nil }
        var failed = false

        var scheme: HTTPDNSAuth.Scheme?
        if let entry = required(.scheme, in: fields) {
            let options = HTTPDNSAuth.Scheme.allCases.map(\.rawValue)
            if let text = choice(entry.value, for: Site(key: "scheme", context), among: options) {
                scheme = HTTPDNSAuth.Scheme(rawValue: text.value)
                if let scheme, let format, scheme.formatName != format.rawValue {
                    // `json` (volcengine-sign) may not be a format yet: say so rather than leave a puzzle.
                    let unread = HTTPDNSSpec.Format(rawValue: scheme.formatName) == nil
                        ? "; this runner does not read format '\(scheme.formatName)' yet" : ""
                    report(
                        at: text.mark,
                        "scheme '\(scheme.rawValue)' \(context) needs 'format: \(scheme.formatName)', "
                            + "but the map's format is '\(format.rawValue)'\(unread)")
                    failed = true
                }
            }
        }

        // The credential: `secret` for a signature, `key` for a cipher.
        var credential: String?
        for name in [HTTPDNSAuthKey.secret, .key] {
            guard let entry = fields[name] else { continue }
            if let scheme, scheme.credentialKey != name.rawValue {
                report(
                    at: entry.keyMark,
                    "scheme '\(scheme.rawValue)' takes '\(scheme.credentialKey)', not '\(name.rawValue)' \(context)")
                failed = true
            } else if let value = secretReference(entry, scheme: scheme, context: context) {
                credential = value
            } else {
                failed = true
            }
        }
        if let scheme, !failed, credential == nil {
            report(at: fields.ownerMark, "missing required key '\(scheme.credentialKey)' \(context)")
            failed = true
        }

        var validFor = HTTPDNSAuth.defaultValidity
        if let entry = fields[.validFor] {
            if let scheme, !scheme.signs {
                report(
                    at: entry.keyMark,
                    "'valid_for' does not apply to scheme '\(scheme.rawValue)' \(context): its queries are "
                        + "encrypted, not signed with an expiry time; remove it")
                failed = true
            } else if let value = duration(entry.value, for: Site(key: "valid_for", context)) {
                if value > HTTPDNSAuth.maximumValidity {
                    report(
                        at: entry.value.mark,
                        "expected a duration of at most 24 hours (1440m) for \(Site(key: "valid_for", context)), "
                            + "got \(describe(entry.value))")
                    failed = true
                } else {
                    validFor = value
                }
            } else {
                failed = true
            }
        }

        guard !failed, let scheme, let credential else { return nil }
        switch scheme {
        case .alibabaSign: return .alibabaSign(secret: credential, validFor: validFor)
        case .volcengineSign: return .volcengineSign(secret: credential, validFor: validFor)
        case .dnspodDES: return .dnspodDES(key: credential)
        case .dnspodAES: return .dnspodAES(key: credential)
        }
    }

    /// The value of `secret` or `key`, which must be written as exactly one `${secret:NAME}`:
    /// only then is it masked in every output. A value written otherwise is never quoted back,
    /// as it may well be the credential itself.
    private func secretReference(
        _ entry: FieldEntry<HTTPDNSAuthKey>, scheme: HTTPDNSAuth.Scheme?, context: Context
    ) -> String? {
        func site() -> Site { Site(key: entry.key, context) }
        let expected = "expected '${secret:NAME}' for \(site()) (a credential comes from the environment and is masked in all output)"
        guard case .scalar(let raw, _) = entry.value.content else {
            report(at: entry.value.mark, "\(expected), got \(entry.value.kindDescription)")
            return nil
        }
        guard Self.isOneSecretReference(raw) else {
            let got = raw.containsReference
                ? "a value that is not exactly one '${secret:…}' reference (not shown)" : "a literal (not shown)"
            report(at: entry.value.mark, "\(expected), got \(got)")
            return nil
        }
        // Substituting records the value as a secret, as for any `${secret:…}`.
        guard let text = string(entry.value, for: site()) else { return nil }
        guard !text.value.isEmpty else {
            report(at: text.mark, "the secret for \(site()) is empty")
            return nil
        }
        if scheme == .dnspodDES, text.value.utf8.count < 8 {
            report(at: text.mark, "the key for \(site()) is shorter than the 8 bytes DES uses")
            return nil
        }
        if scheme == .dnspodAES, text.value.utf8.count > 16 {
            report(
                at: text.mark,
                "the key for \(site()) is longer than 16 bytes (an AES-128 key; a shorter one is padded with '0')")
            return nil
        }
        return text.value
    }

    /// `${secret:NAME}` and nothing else around it.
    static func isOneSecretReference(_ raw: String) -> Bool {
        guard raw.hasPrefix("${secret:"), let close = raw.firstIndex(of: "}") else { return false }
        return raw.index(after: close) == raw.endIndex
    }

    /// Fallback chains must end: report each cycle once, at the fallback that closes it.
    private func checkFallbackCycles(_ maps: [DomainMapSpec], marks: [String: YAMLMark]) {
        var next: [String: String] = [:]
        for map in maps {
            if case .httpdns(let spec) = map.source, case .map(let target) = spec.fallback { next[map.name] = target }
        }
        var state: [String: Int] = [:]  // 1: on the current path, 2: done
        for map in maps where state[map.name] == nil {
            var path: [String] = []
            var current: String? = map.name
            while let name = current, state[name] == nil {
                state[name] = 1
                path.append(name)
                current = next[name]
            }
            if let name = current, state[name] == 1, let start = path.firstIndex(of: name) {
                let cycle = path[start...] + [name]
                let mark = marks[name] ?? YAMLMark(line: 1, column: 1)
                report(at: mark, "fallback cycle between domain maps: \(cycle.map { "'\($0)'" }.joined(separator: " → "))")
            }
            for name in path { state[name] = 2 }
        }
    }

    /// Letters, digits, `-`, `_` and dots: what a DNS name (or an IP literal used as a host) holds.
    static func isHostName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }
}

extension String {
    /// `replacingOccurrences` without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
