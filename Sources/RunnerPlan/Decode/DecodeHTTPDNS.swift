/// `httpdns:` of a domain map: the service's URL, its format and what the format needs
/// (`method` for doh, `answer` for json), how to reach it (`service_ips`), its `auth`, and the
/// app's SDK (`sdk`, DecodeSDK.swift), which gives `fallback` and `retain: sdk` their meaning.
///
/// Each section's keys go through one switch with no `default`, so a key added to
/// `HTTPDNSKey`, `HTTPDNSAuthKey` or `HTTPDNSAnswerKey` without a decoder does not compile.
extension PlanDecoder {
    func decodeHTTPDNS(
        _ entry: FieldEntry<DomainMapKey>, mapName: String, context: Context
    ) -> (HTTPDNSSpec, fallbackMark: YAMLMark?, rankMark: YAMLMark?)? {
        guard let fields = fields(
            of: entry.value, site: Site(key: "httpdns", Context(context.owner)), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdns)
        else { return nil }
        var formatEntry, urlEntry, methodEntry, serviceIPsEntry: FieldEntry<HTTPDNSKey>?
        var timeoutEntry, fallbackEntry, authEntry, answerEntry, clientsEntry, retainEntry, sdkEntry: FieldEntry<HTTPDNSKey>?
        for entry in fields.entries {
            switch entry.name {
            case .format: formatEntry = entry
            case .url: urlEntry = entry
            case .method: methodEntry = entry
            case .serviceIPs: serviceIPsEntry = entry
            case .timeout: timeoutEntry = entry
            case .fallback: fallbackEntry = entry
            case .auth: authEntry = entry
            case .answer: answerEntry = entry
            case .clients: clientsEntry = entry
            case .retain: retainEntry = entry
            case .sdk: sdkEntry = entry
            }
        }
        var failed = false

        var formatName: HTTPDNSSpec.Format.Name?
        if let formatEntry {
            let options = HTTPDNSSpec.Format.Name.allCases.map(\.rawValue)
            formatName = choice(formatEntry.value, for: Site(key: "format", context), among: options)
                .flatMap { HTTPDNSSpec.Format.Name(rawValue: $0.value) }
        } else {
            report(at: fields.ownerMark, "missing required key 'format' \(context)")
        }

        var template: String?
        if let urlEntry {
            template = decodeServiceURL(urlEntry, format: formatName, context: context)
        } else {
            report(at: fields.ownerMark, "missing required key 'url' \(context)")
        }

        var method = HTTPDNSSpec.DoHMethod.get
        if let methodEntry {
            if let formatName, formatName != .doh {
                report(
                    at: methodEntry.keyMark,
                    "'method' \(context) applies to 'format: doh' only (GET or POST); "
                        + "format '\(formatName.rawValue)' always asks with GET")
                failed = true
            } else if let text = choice(
                methodEntry.value, for: Site(key: "method", context),
                among: HTTPDNSSpec.DoHMethod.allCases.map(\.rawValue)), let chosen = HTTPDNSSpec.DoHMethod(rawValue: text.value) {
                method = chosen
            } else {
                failed = true
            }
        }

        var answer: JSONAnswerMapping?
        if let answerEntry {
            if let formatName, formatName != .json {
                report(
                    at: answerEntry.keyMark,
                    "'answer' \(context) applies to 'format: json' only; format '\(formatName.rawValue)' has its own answer shape")
                failed = true
            } else if let mapping = decodeJSONAnswer(answerEntry, httpdnsContext: context) {
                answer = mapping
            } else {
                failed = true
            }
        } else if formatName == .json {
            report(
                at: fields.ownerMark,
                "missing required key 'answer' \(context): 'format: json' needs the JSONPath of the addresses, "
                    + "e.g. answer: {ips: \"$.data.ips[*]\"}")
            failed = true
        }

        var serviceIPs: [IPAddress] = []
        if let serviceIPsEntry {
            if let addresses = decodeServiceIPs(serviceIPsEntry, context: context) { serviceIPs = addresses } else { failed = true }
        }

        var timeout: Duration = .seconds(2)
        if let timeoutEntry {
            if let value = duration(timeoutEntry.value, for: Site(key: "timeout", context)) { timeout = value } else { failed = true }
        }

        var sdk: SDKProfile?
        var rankMark: YAMLMark?
        if let sdkEntry {
            if let (profile, mark) = decodeSDK(sdkEntry, httpdnsContext: context) {
                sdk = profile
                rankMark = mark
            } else {
                failed = true
            }
        }

        // The map's own `fallback` wins; without one, the SDK's degradation to the system resolver.
        var fallback = sdk?.kind.defaultFallback ?? .none
        var fallbackMark: YAMLMark?
        if let fallbackEntry {
            if let (value, mark) = decodeFallback(fallbackEntry, mapName: mapName, context: context) {
                fallback = value
                fallbackMark = mark
            } else {
                failed = true
            }
        }

        var auth: HTTPDNSAuth?
        if let authEntry {
            auth = decodeHTTPDNSAuth(authEntry, format: formatName, httpdnsContext: context)
            if auth == nil { failed = true }
        } else if formatName == .alibabaV2 {
            report(
                at: fields.ownerMark,
                "missing required key 'auth' \(context): format 'alibaba-v2' signs every query, "
                    + "e.g. auth: {scheme: alibaba-v2, secret: \"${secret:ALIBABA_SECRET}\"}")
            failed = true
        }

        var retain: HTTPDNSSpec.Retention?
        if let retainEntry {
            retain = decodeRetain(retainEntry, hasSDK: sdkEntry != nil, context: context)
            if retain == nil { failed = true }
        }

        var clients: ClientSelection?
        if let clientsEntry {
            clients = decodeClientSelection(clientsEntry, context: context)
            if clients == nil { failed = true }
        }
        if let template, let formatName, let urlEntry,
           !checkClientPlaceholders(template, format: formatName, clients: clientsEntry, urlMark: urlEntry.value.mark, context: context) {
            failed = true
        }

        guard !failed, let formatName, let template else { return nil }
        let format: HTTPDNSSpec.Format
        switch formatName {
        case .dnspod: format = .dnspod
        case .alibaba: format = .alibaba
        case .alibabaV2: format = .alibabaV2
        case .dohJSON: format = .dohJSON
        case .json:
            guard let answer else { return nil }
            format = .json(answer)
        case .doh: format = .doh(method: method)
        }
        let spec = HTTPDNSSpec(
            format: format, urlTemplate: template, timeout: timeout, fallback: fallback, auth: auth, serviceIPs: serviceIPs,
            clients: clients, retain: retain, sdk: sdk)
        return (spec, fallbackMark, rankMark)
    }

    /// `retain: DURATION` (above 0, at most 30 days), or `retain: sdk`: the window the map's
    /// `sdk:` gives each answer.
    private func decodeRetain(_ entry: FieldEntry<HTTPDNSKey>, hasSDK: Bool, context: Context) -> HTTPDNSSpec.Retention? {
        func site() -> Site { Site(key: "retain", context) }
        let expected = "a duration such as '24h' or 'sdk'"
        guard let text = text(entry.value, expected: expected, for: site()) else { return nil }
        if text.value == "sdk" {
            guard hasSDK else {
                report(
                    at: text.mark,
                    "'retain: sdk' \(context) takes its window from the map's 'sdk:', which it does not have; "
                        + "add e.g. sdk: {profile: alibaba-android}, or give a duration such as 24h")
                return nil
            }
            return .sdk
        }
        switch Self.parseDuration(text.value) {
        case .valid(let value) where value <= HTTPDNSSpec.maximumRetention:
            return .duration(value)
        case .valid, .notPositive, .tooLarge:
            report(at: text.mark, "expected a duration above 0 and at most 30 days (720h) for \(site()), got \(text.quoted)")
        case .invalid:
            report(at: text.mark, "expected \(expected) for \(site()), got \(text.quoted)\(Suggestion.phrase(for: text.value, among: ["sdk"]))")
        }
        return nil
    }

    /// The service URL: absolute http(s); with `{host}` where the name goes, except for `doh`,
    /// whose name travels inside the DNS message.
    private func decodeServiceURL(
        _ entry: FieldEntry<HTTPDNSKey>, format: HTTPDNSSpec.Format.Name?, context: Context
    ) -> String? {
        guard let text = string(entry.value, for: Site(key: "url", context)) else { return nil }
        func site() -> Site { Site(key: "url", context) }
        let namesHost = text.value.contains("{host}")
        if format == .doh, namesHost {
            report(
                at: text.mark,
                "expected a URL without '{host}' for \(site()) (with 'format: doh' the name travels inside the DNS message), "
                    + "got \(text.quoted)")
            return nil
        }
        if format != .doh, !namesHost {
            report(at: text.mark, "expected a URL with '{host}' where the host name goes for \(site()), got \(text.quoted)")
            return nil
        }
        let example = text.value.replacingAll("{host}", with: "example.com").replacingAll("{client}", with: "192.0.2.1")
            .replacingAll("{client_subnet}", with: "192.0.2.0%2F24")
        guard PlanURL.parse(example) != nil else {
            report(at: text.mark, "expected an absolute http:// or https:// URL for \(site()), got \(text.quoted)")
            return nil
        }
        return text.value
    }

    /// `{client}` and `{client_subnet}` only in a map asked as clients, and such a map's URL
    /// able to carry the client: a placeholder, or a format that has a client field of its own
    /// (`doh`: the EDNS Client Subnet option). False when it reported a problem.
    private func checkClientPlaceholders(
        _ template: String, format: HTTPDNSSpec.Format.Name, clients: FieldEntry<HTTPDNSKey>?, urlMark: YAMLMark, context: Context
    ) -> Bool {
        let placeholders = ["{client}", "{client_subnet}"].filter { template.contains($0) }
        if let clients {
            guard placeholders.isEmpty, !format.carriesClient else { return true }
            report(
                at: clients.keyMark,
                "'clients' \(context) asks as each client, but the URL has no '{client}' or '{client_subnet}' to carry it "
                    + "and format '\(format.rawValue)' has no client field of its own; e.g. add '&ip={client}' to the URL")
            return false
        }
        guard let first = placeholders.first else { return true }
        report(
            at: urlMark,
            "'\(first)' in the URL \(context) needs 'clients' on the map: the populations to ask as "
                + "(e.g. clients: all, with the plan's 'clients:' at the top level)")
        return false
    }

    /// `service_ips`: a non-empty list of IP addresses, each once, tried in order.
    private func decodeServiceIPs(_ entry: FieldEntry<HTTPDNSKey>, context: Context) -> [IPAddress]? {
        func site() -> Site { Site(key: "service_ips", context) }
        guard let items = items(entry.value, expected: "a list of IP addresses", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one IP address for \(site()), got an empty list")
            return nil
        }
        var addresses: [IPAddress] = []
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            guard let address = IPAddress(text.value) else {
                report(at: text.mark, "\(text.quoted) is not an IP address (\(site()))")
                failed = true
                continue
            }
            if addresses.contains(address) {
                report(at: text.mark, "\(text.quoted) is listed twice in \(site())")
                failed = true
                continue
            }
            addresses.append(address)
        }
        return failed ? nil : addresses
    }

    /// `fallback`: `none`, `system` or another declared map; the mark of a map name, for the cycle check.
    private func decodeFallback(
        _ entry: FieldEntry<HTTPDNSKey>, mapName: String, context: Context
    ) -> (HTTPDNSSpec.Fallback, YAMLMark?)? {
        guard let text = string(entry.value, for: Site(key: "fallback", context)) else { return nil }
        switch text.value {
        case "none": return (.none, nil)
        case systemDomainMapName: return (.system, nil)
        case mapName:
            report(at: text.mark, "domain map '\(mapName)' cannot fall back to itself; use 'none', 'system' or another map")
            return nil
        default:
            guard domainMapNameSet.contains(text.value) else {
                let hint = Suggestion.closest(to: text.value, among: domainMapNames + ["none", "system"])
                    .map { "; did you mean '\($0)'?" } ?? "; expected 'none', 'system' or a declared map"
                report(at: text.mark, "unknown domain map \(text.quoted) for 'fallback' \(context)\(hint)")
                return nil
            }
            return (.map(text.value), text.mark)
        }
    }

    /// `answer:` of a `format: json` map: JSONPath selections (`[*]` allowed); `ips` required.
    private func decodeJSONAnswer(_ entry: FieldEntry<HTTPDNSKey>, httpdnsContext: Context) -> JSONAnswerMapping? {
        let context = httpdnsContext.part(.httpdnsAnswer)
        guard let fields = fields(
            of: entry.value, site: Site(key: "answer", httpdnsContext), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdnsAnswer)
        else { return nil }
        var ips, ipv6, ttl: JSONPath?
        var failed = false
        for entry in fields.entries {
            let path = answerPath(entry, context: context)
            if path == nil { failed = true }
            switch entry.name {
            case .ips: ips = path
            case .ipv6: ipv6 = path
            case .ttl: ttl = path
            }
        }
        guard !failed else { return nil }
        guard let ips else {
            report(at: fields.ownerMark, "missing required key 'ips' \(context): the JSONPath of the addresses, e.g. \"$.data.ips[*]\"")
            return nil
        }
        return JSONAnswerMapping(ips: ips, ipv6: ipv6, ttl: ttl)
    }

    private func answerPath(_ entry: FieldEntry<HTTPDNSAnswerKey>, context: Context) -> JSONPath? {
        func site() -> Site { Site(key: entry.key, context) }
        guard let text = string(entry.value, for: site()) else { return nil }
        switch JSONPathParser.parse(text.value, allowingEveryElement: true) {
        case .success(let path):
            return path
        case .failure(let problem):
            report(at: text.mark, "invalid JSON path \(text.quoted) for \(site()): \(problem.message)")
            return nil
        }
    }

    /// `auth:` of an httpdns map: a scheme that suits the map's format, its secret or key
    /// (only as `${secret:NAME}`), for the signing schemes how long a signature is valid, and
    /// for `alibaba-v2` whether and how it encrypts. Nil (reported) when anything is wrong; each
    /// key is checked even when another is not.
    private func decodeHTTPDNSAuth(
        _ entry: FieldEntry<HTTPDNSKey>, format: HTTPDNSSpec.Format.Name?, httpdnsContext: Context
    ) -> HTTPDNSAuth? {
        let context = httpdnsContext.part(.httpdnsAuth)
        guard let fields = fields(
            of: entry.value, site: Site(key: "auth", httpdnsContext), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdnsAuth)
        else { return nil }
        var schemeEntry, validForEntry, encryptEntry: FieldEntry<HTTPDNSAuthKey>?
        var credentialEntries: [FieldEntry<HTTPDNSAuthKey>] = []
        for entry in fields.entries {
            switch entry.name {
            case .scheme: schemeEntry = entry
            case .secret, .key: credentialEntries.append(entry)
            case .validFor: validForEntry = entry
            case .encrypt: encryptEntry = entry
            }
        }
        var failed = false

        var scheme: HTTPDNSAuth.Scheme?
        if let schemeEntry {
            let options = HTTPDNSAuth.Scheme.allCases.map(\.rawValue)
            if let text = choice(schemeEntry.value, for: Site(key: "scheme", context), among: options) {
                scheme = HTTPDNSAuth.Scheme(rawValue: text.value)
                if let scheme, let format, scheme.format != format {
                    report(
                        at: text.mark,
                        "scheme '\(scheme.rawValue)' \(context) needs 'format: \(scheme.format.rawValue)', "
                            + "but the map's format is '\(format.rawValue)'")
                    failed = true
                }
            }
        } else {
            report(at: fields.ownerMark, "missing required key 'scheme' \(context)")
        }

        // `encrypt`: alibaba-v2's alone; it decides whether that scheme takes a `key` too.
        var encryption = HTTPDNSAuth.AlibabaV2Encryption.Name.none
        if let encryptEntry {
            if let scheme, scheme != .alibabaV2 {
                report(at: encryptEntry.keyMark, "'encrypt' applies to scheme 'alibaba-v2' only, not '\(scheme.rawValue)' \(context)")
                failed = true
            } else if let text = choice(
                encryptEntry.value, for: Site(key: "encrypt", context),
                among: HTTPDNSAuth.AlibabaV2Encryption.Name.allCases.map(\.rawValue)),
                let name = HTTPDNSAuth.AlibabaV2Encryption.Name(rawValue: text.value)
            {
                encryption = name
            } else {
                failed = true
            }
        }
        /// The keys this scheme takes: its credential, and alibaba-v2's `key` when it encrypts.
        func takes(_ key: String, _ scheme: HTTPDNSAuth.Scheme) -> Bool {
            key == scheme.credentialKey || (scheme == .alibabaV2 && key == "key" && encryption != .none)
        }

        // The credentials: `secret` for a signature, `key` for a cipher.
        var credentials: [String: String] = [:]
        for entry in credentialEntries {
            if let scheme, !takes(entry.key, scheme) {
                let reason = scheme == .alibabaV2
                    ? "scheme 'alibaba-v2' takes 'key' only with 'encrypt: aes-cbc' or 'encrypt: aes-gcm' \(context)"
                    : "scheme '\(scheme.rawValue)' takes '\(scheme.credentialKey)', not '\(entry.key)' \(context)"
                report(at: entry.keyMark, reason)
                failed = true
            } else if let value = secretReference(entry, scheme: scheme, context: context) {
                credentials[entry.key] = value
            } else {
                failed = true
            }
        }
        if let scheme, !failed {
            for key in [scheme.credentialKey, "key"] where takes(key, scheme) && credentials[key] == nil {
                let why = key == "key" && scheme == .alibabaV2 ? " (the AES key 'encrypt: \(encryption.rawValue)' uses)" : ""
                report(at: fields.ownerMark, "missing required key '\(key)' \(context)\(why)")
                failed = true
            }
        }

        var validFor = HTTPDNSAuth.defaultValidity
        if let validForEntry {
            if let scheme, !scheme.signs {
                report(
                    at: validForEntry.keyMark,
                    "'valid_for' does not apply to scheme '\(scheme.rawValue)' \(context): its queries are "
                        + "encrypted, not signed with an expiry time; remove it")
                failed = true
            } else if let value = duration(validForEntry.value, for: Site(key: "valid_for", context)) {
                if value > HTTPDNSAuth.maximumValidity {
                    report(
                        at: validForEntry.value.mark,
                        "expected a duration of at most 24 hours (1440m) for \(Site(key: "valid_for", context)), "
                            + "got \(describe(validForEntry.value))")
                    failed = true
                } else {
                    validFor = value
                }
            } else {
                failed = true
            }
        }

        guard !failed, let scheme, let credential = credentials[scheme.credentialKey] else { return nil }
        switch scheme {
        case .alibabaSign: return .alibabaSign(secret: credential, validFor: validFor)
        case .volcengineSign: return .volcengineSign(secret: credential, validFor: validFor)
        case .dnspodDES: return .dnspodDES(key: credential)
        case .dnspodAES: return .dnspodAES(key: credential)
        case .alibabaV2:
            let key = credentials["key"] ?? ""
            let mode: HTTPDNSAuth.AlibabaV2Encryption = switch encryption {
            case .none: .none
            case .aesCBC: .aesCBC(key: key)
            case .aesGCM: .aesGCM(key: key)
            }
            return .alibabaV2(secret: credential, encryption: mode, validFor: validFor)
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
        if scheme == .alibabaV2, let problem = Self.alibabaV2HexProblem(text.value, key: entry.name == .key) {
            report(at: text.mark, "the \(entry.key) for \(site()) \(problem)")
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

    /// Why an alibaba-v2 secret (an even number, at least 16, of hex digits) or key (32 hex
    /// digits: AES-128) cannot be one, without quoting it; nil when it can.
    static func alibabaV2HexProblem(_ value: String, key: Bool) -> String? {
        let digits = value.utf8.count
        let hex = value.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
        let wanted = key ? "32 hex digits (an AES-128 key, as the EMAS console shows it)"
            : "an even number, at least 16, of hex digits (as the EMAS console shows it)"
        if !hex { return "is not hex: expected \(wanted)" }
        if key ? digits != 32 : (digits < 16 || digits % 2 != 0) { return "has \(digits) hex digits: expected \(wanted)" }
        return nil
    }

    /// `${secret:NAME}` and nothing else around it.
    static func isOneSecretReference(_ raw: String) -> Bool {
        guard raw.hasPrefix("${secret:"), let close = raw.firstIndex(of: "}") else { return false }
        return raw.index(after: close) == raw.endIndex
    }
}
