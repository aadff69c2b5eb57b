/// What the app's HTTPDNS SDK does with an answer (`sdk:` of an HTTPDNS map): which SDK, and
/// the settings the app gave it, each the SDK's own default unless the plan says otherwise.
///
/// The defaults are the SDKs' sources' (Alibaba Android `IPRankingService`/`InitConfig`, Alibaba
/// iOS `HttpdnsIPQualityDetector`, Tencent `IpRankHelper`/`DnsConfig`, Tencent iOS
/// `MSDKDnsTCPSpeedTester`, Volcengine's documentation). The map's effective `fallback` (the
/// SDK's degradation to the system resolver) is `HTTPDNSSpec.fallback`, not here: one value.
public struct SDKProfile: Sendable, Equatable {
    /// The SDKs, by their plan names.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case alibabaAndroid = "alibaba-android"
        case alibabaIOS = "alibaba-ios"
        case tencentAndroid = "tencent-android"
        case tencentIOS = "tencent-ios"
        case volcengine
    }

    /// How a failed connect counts when addresses are ranked.
    public enum FailureScore: Sendable, Equatable {
        /// After every address that connected (Alibaba: `Integer.MAX_VALUE`, iOS `-1`).
        case last
        /// As a connect that took this long (Tencent: 10 s on Android, 600,000 ms on iOS).
        case time(Duration)
    }

    /// The address families an SDK reorders; the others keep the service's order.
    public enum RankedFamilies: Sendable, Equatable {
        /// IPv4 only (Alibaba Android; Tencent Android appends IPv6 unranked).
        case ipv4
        case ipv4AndIPv6
    }

    /// Ranking by TCP connect time, as the SDK does it when the app configures it
    /// (`setIPRankingList`, `setIPRankingDatasource:`, `ipRankItems`, `WGSetIPRankData:`). The
    /// new order applies to the next lookup, not the current one.
    public struct Ranking: Sendable, Equatable {
        /// The port connected to.
        public var port: Int
        /// How long one connect may take.
        public var connectTimeout: Duration
        public var failureScore: FailureScore
        public var families: RankedFamilies
        /// Fewer addresses than this (of a ranked family) are left as the service gave them.
        public var minimumAddresses: Int
        /// More addresses than this are left as the service gave them (Tencent iOS: 9); nil: no limit.
        public var maximumAddresses: Int?
        /// How many hosts the app can name for ranking (Tencent Android: 10); nil: no limit.
        public var maximumHosts: Int?

        public init(
            port: Int, connectTimeout: Duration, failureScore: FailureScore, families: RankedFamilies,
            minimumAddresses: Int, maximumAddresses: Int? = nil, maximumHosts: Int? = nil
        ) {
            self.port = port
            self.connectTimeout = connectTimeout
            self.failureScore = failureScore
            self.families = families
            self.minimumAddresses = minimumAddresses
            self.maximumAddresses = maximumAddresses
            self.maximumHosts = maximumHosts
        }
    }

    /// Whether the SDK hands out an answer past its TTL (refreshing it in the background).
    public enum ExpiredAnswers: Sendable, Equatable {
        case off
        /// Up to this long past the TTL (Volcengine: 60 s).
        case upTo(Duration)
        /// However long past the TTL, until a refresh replaces it (Alibaba Android's default).
        case unlimited
    }

    /// The answers the SDK keeps across app restarts (Alibaba `setEnableCacheIp`,
    /// `setPersistentCacheIPEnabled:discardRecordsHasExpiredFor:`; Tencent `setCachedIpEnable`).
    public struct PersistentCache: Sendable, Equatable {
        public var enabled: Bool
        /// How long past its TTL a kept answer is still loaded at start.
        public var discardAfter: Duration

        public init(enabled: Bool, discardAfter: Duration) {
            self.enabled = enabled
            self.discardAfter = discardAfter
        }
    }

    public var kind: Kind
    /// Nil: the app does not rank (the SDKs' default).
    public var ranking: Ranking?
    public var expiredAnswers: ExpiredAnswers
    public var persistentCache: PersistentCache

    /// The longest `discard_after` (the Alibaba SDKs' bound: a year past the TTL).
    public static let maximumDiscardAfter: Duration = .seconds(365 * 24 * 3600)

    public init(kind: Kind, ranking: Ranking? = nil, expiredAnswers: ExpiredAnswers? = nil, persistentCache: PersistentCache? = nil) {
        self.kind = kind
        self.ranking = ranking
        self.expiredAnswers = expiredAnswers ?? kind.defaultExpiredAnswers
        self.persistentCache = persistentCache ?? PersistentCache(enabled: false, discardAfter: Self.maximumDiscardAfter)
    }

    /// How long an app holds an address its service returned with this TTL (nil: none given):
    /// the TTL (Tencent caps it at 6,000 s), then as long as the SDK reuses an expired answer or
    /// its persistent cache keeps it, whichever is longer. At most `HTTPDNSSpec.maximumRetention`,
    /// unless the persistent cache is on and keeps it longer (up to a year past the TTL).
    public func retentionWindow(ttl: Duration?) -> Duration {
        var held = ttl ?? .zero
        if let longest = kind.maximumTTL { held = min(held, longest) }
        let expired: Duration = switch expiredAnswers {
        case .off: .zero
        case .upTo(let limit): limit
        case .unlimited: HTTPDNSSpec.maximumRetention
        }
        let persisted = persistentCache.enabled ? persistentCache.discardAfter : .zero
        let cap = max(HTTPDNSSpec.maximumRetention, held + persisted)
        return min(held + max(expired, persisted), cap)
    }
}

extension SDKProfile.Kind {
    /// Whether the SDK can rank addresses at all (Volcengine documents no ranking).
    public var canRank: Bool {
        switch self {
        case .alibabaAndroid, .alibabaIOS, .tencentAndroid, .tencentIOS: true
        case .volcengine: false
        }
    }

    /// The port ranking connects to when the app names none; nil: the app must name it
    /// (Alibaba Android's `IPRankingBean(host, port)`).
    public var defaultRankPort: Int? {
        switch self {
        case .alibabaAndroid, .volcengine: nil
        case .alibabaIOS, .tencentIOS: 80
        case .tencentAndroid: 8080
        }
    }

    /// The SDK's ranking on `port` (its default port when nil); nil when it cannot rank, or
    /// needs a port and has none.
    public func defaultRanking(port: Int?) -> SDKProfile.Ranking? {
        let port = port ?? defaultRankPort
        switch self {
        case .alibabaAndroid:
            return port.map {
                .init(port: $0, connectTimeout: .seconds(5), failureScore: .last, families: .ipv4, minimumAddresses: 2)
            }
        case .alibabaIOS:
            return port.map {
                .init(port: $0, connectTimeout: .seconds(2), failureScore: .last, families: .ipv4AndIPv6, minimumAddresses: 2)
            }
        case .tencentAndroid:
            return port.map {
                .init(
                    port: $0, connectTimeout: .seconds(10), failureScore: .time(.seconds(10)), families: .ipv4,
                    minimumAddresses: 2, maximumHosts: 10)
            }
        case .tencentIOS:
            return port.map {
                .init(
                    port: $0, connectTimeout: .seconds(10), failureScore: .time(.milliseconds(600_000)),
                    families: .ipv4AndIPv6, minimumAddresses: 2, maximumAddresses: 9)
            }
        case .volcengine:
            return nil
        }
    }

    /// Expired-answer reuse as the SDK ships: Alibaba Android on, Alibaba iOS and Tencent off,
    /// Volcengine up to 60 s.
    public var defaultExpiredAnswers: SDKProfile.ExpiredAnswers {
        switch self {
        case .alibabaAndroid: .unlimited
        case .alibabaIOS, .tencentAndroid, .tencentIOS: .off
        case .volcengine: .upTo(.seconds(60))
        }
    }

    /// What `expired: true` turns on: Volcengine's 60 s, the others' reuse without a limit.
    public var enabledExpiredAnswers: SDKProfile.ExpiredAnswers {
        switch self {
        case .alibabaAndroid, .alibabaIOS, .tencentAndroid, .tencentIOS: .unlimited
        case .volcengine: .upTo(.seconds(60))
        }
    }

    /// Where the SDK goes when HTTPDNS gives nothing, unless the map's `fallback` says: Alibaba's
    /// degradation to the system resolver is off by default; Tencent asks the system resolver
    /// per family HTTPDNS gave nothing for; Volcengine asks both at once on a miss.
    public var defaultFallback: HTTPDNSSpec.Fallback {
        switch self {
        case .alibabaAndroid, .alibabaIOS: .none
        case .tencentAndroid, .tencentIOS, .volcengine: .system
        }
    }

    /// The longest TTL the SDK honours (Tencent: 6,000 s); nil: the answer's own.
    public var maximumTTL: Duration? {
        switch self {
        case .tencentAndroid, .tencentIOS: .seconds(6000)
        case .alibabaAndroid, .alibabaIOS, .volcengine: nil
        }
    }
}
