/// `sdk:` of an HTTPDNS map: the app's SDK (`profile`) and what the app configured it with
/// (`rank`, `expired`, `cache`), each the profile's default unless written. What the SDK itself
/// would refuse is a plan error here.
///
/// Each section's keys go through one switch with no `default`, so a key added to `SDKKey`,
/// `SDKRankKey` or `SDKCacheKey` without a decoder does not compile.
extension PlanDecoder {
    /// The profile, and the mark of its `rank` (for the check of how many hosts it ranks).
    func decodeSDK(_ entry: FieldEntry<HTTPDNSKey>, httpdnsContext: Context) -> (SDKProfile, rankMark: YAMLMark?)? {
        let context = httpdnsContext.part(.httpdnsSDK)
        guard let fields = fields(
            of: entry.value, site: Site(key: "sdk", httpdnsContext), context: context,
            ownerMark: entry.keyMark, keys: Keys.httpdnsSDK)
        else { return nil }
        var profileEntry, rankEntry, expiredEntry, cacheEntry: FieldEntry<SDKKey>?
        for entry in fields.entries {
            switch entry.name {
            case .profile: profileEntry = entry
            case .rank: rankEntry = entry
            case .expired: expiredEntry = entry
            case .cache: cacheEntry = entry
            }
        }
        var failed = false

        var kind: SDKProfile.Kind?
        if let profileEntry {
            kind = choice(profileEntry.value, for: Site(key: "profile", context), among: SDKProfile.Kind.allCases.map(\.rawValue))
                .flatMap { SDKProfile.Kind(rawValue: $0.value) }
            if kind == nil { failed = true }
        } else {
            report(at: fields.ownerMark, "missing required key 'profile' \(context): the app's SDK, e.g. profile: alibaba-android")
            failed = true
        }

        var ranking: SDKProfile.Ranking?
        if let rankEntry {
            switch decodeRank(rankEntry, kind: kind, context: context) {
            case .failed: failed = true
            case .off: break
            case .on(let value): ranking = value
            }
        }

        var expired: SDKProfile.ExpiredAnswers?
        if let expiredEntry {
            expired = decodeExpired(expiredEntry, kind: kind, context: context)
            if expired == nil { failed = true }
        }

        var cache: SDKProfile.PersistentCache?
        if let cacheEntry {
            cache = decodeSDKCache(cacheEntry, context: context)
            if cache == nil { failed = true }
        }

        guard !failed, let kind else { return nil }
        let profile = SDKProfile(kind: kind, ranking: ranking, expiredAnswers: expired, persistentCache: cache)
        return (profile, ranking == nil ? nil : rankEntry?.keyMark)
    }

    private enum RankSetting {
        case failed, off
        case on(SDKProfile.Ranking)
    }

    /// `rank: {port: N}` (the app ranks; `port` may be left to the profile's default) or `rank: false`.
    private func decodeRank(_ entry: FieldEntry<SDKKey>, kind: SDKProfile.Kind?, context: Context) -> RankSetting {
        func site() -> Site { Site(key: "rank", context) }
        guard case .mapping = entry.value.content else {
            let expected = "a mapping such as {port: 443}, or false,"
            guard let text = text(entry.value, expected: expected, for: site()) else { return .failed }
            guard text.isPlain, ["false", "False", "FALSE"].contains(text.value) else {
                report(at: text.mark, "expected \(expected) for \(site()), got \(text.quoted)")
                return .failed
            }
            return .off
        }
        let rankContext = context.part(.httpdnsSDKRank)
        guard let fields = fields(of: entry.value, site: site(), context: rankContext, ownerMark: entry.keyMark, keys: Keys.sdkRank)
        else { return .failed }
        var port: Int?
        var failed = false
        for field in fields.entries {
            switch field.name {
            case .port:
                port = integer(field.value, for: Site(key: "port", rankContext), minimum: 1, maximum: 65535)
                if port == nil { failed = true }
            }
        }
        guard let kind, !failed else { return .failed }
        guard kind.canRank else {
            report(
                at: entry.keyMark,
                "'rank' \(context): profile '\(kind.rawValue)' does not rank addresses (the SDK has no IP ranking); remove it")
            return .failed
        }
        guard let ranking = kind.defaultRanking(port: port) else {
            report(
                at: fields.ownerMark,
                "missing required key 'port' \(rankContext): profile '\(kind.rawValue)' ranks on the port the app names "
                    + "(IPRankingBean(host, port)) and has no default, e.g. rank: {port: 443}")
            return .failed
        }
        return .on(ranking)
    }

    /// `expired: true | false | DURATION`: whether, and how long past its TTL, the SDK hands out an expired answer.
    private func decodeExpired(_ entry: FieldEntry<SDKKey>, kind: SDKProfile.Kind?, context: Context) -> SDKProfile.ExpiredAnswers? {
        func site() -> Site { Site(key: "expired", context) }
        let expected = "true, false or a duration such as '60s'"
        guard let text = text(entry.value, expected: expected, for: site()) else { return nil }
        if text.isPlain {
            switch text.value {
            case "true", "True", "TRUE": return kind.map(\.enabledExpiredAnswers)
            case "false", "False", "FALSE": return .off
            default: break
            }
        }
        return duration(of: text, expected: expected, alternative: " (or false)", for: site()).map { .upTo($0) }
    }

    /// `cache: {persist, discard_after}`: the SDK's persistent cache; `discard_after` at most a year.
    private func decodeSDKCache(_ entry: FieldEntry<SDKKey>, context: Context) -> SDKProfile.PersistentCache? {
        let cacheContext = context.part(.httpdnsSDKCache)
        guard let fields = fields(
            of: entry.value, site: Site(key: "cache", context), context: cacheContext, ownerMark: entry.keyMark,
            keys: Keys.sdkCache)
        else { return nil }
        var cache = SDKProfile.PersistentCache(enabled: false, discardAfter: SDKProfile.maximumDiscardAfter)
        var failed = false
        for field in fields.entries {
            switch field.name {
            case .persist:
                if let value = bool(field.value, for: Site(key: "persist", cacheContext)) { cache.enabled = value } else { failed = true }
            case .discardAfter:
                guard let value = duration(field.value, for: Site(key: "discard_after", cacheContext)) else {
                    failed = true
                    continue
                }
                guard value <= SDKProfile.maximumDiscardAfter else {
                    report(
                        at: field.value.mark,
                        "expected a duration of at most a year (365d) for \(Site(key: "discard_after", cacheContext)), "
                            + "got \(describe(field.value)): the SDKs keep a persisted answer at most a year past its TTL")
                    failed = true
                    continue
                }
                cache.discardAfter = value
            }
        }
        return failed ? nil : cache
    }

    /// A map whose SDK ranks at most so many hosts (Tencent Android's `ipRankItems`: 10) must
    /// not be asked for more by the plan's scenarios: the app could not have ranked them all.
    func checkRankedHosts(_ maps: [DomainMapSpec], scenarios: [Scenario]) {
        for map in maps {
            guard case .httpdns(let spec) = map.source, let profile = spec.sdk, let limit = profile.ranking?.maximumHosts,
                  let mark = rankMarks[map.name]
            else { continue }
            var hosts: [String] = []
            for scenario in scenarios where scenario.domainMap == map.name && !hosts.contains(scenario.request.url.host) {
                hosts.append(scenario.request.url.host)
            }
            guard hosts.count > limit else { continue }
            let listed = hosts.prefix(limit + 1).map { "'\($0)'" }.joined(separator: ", ") + (hosts.count > limit + 1 ? ", …" : "")
            report(
                at: mark,
                "profile '\(profile.kind.rawValue)' ranks at most \(limit) hosts, but the scenarios on domain map '\(map.name)' "
                    + "ask it for \(hosts.count): \(listed); the app cannot rank them all")
        }
    }
}
