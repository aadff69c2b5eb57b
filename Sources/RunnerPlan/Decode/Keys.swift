/// A key some section of a plan accepts (plan-format.md).
///
/// The one place a key's text is written: each section's key enum (`SectionKey`) names its
/// keys as these values, and `PlanKeyTests` checks that every one of them is some section's.
///
/// `PlanLoader` has the parser intern these texts first, so a key written in a plan is
/// recognised by its text index rather than by comparing strings (a large plan holds millions
/// of keys). Key sets are 128-bit masks: there may be at most 128 keys.
enum PlanKey: String, CaseIterable, Sendable {
    case version, name, defaults, vars, domains, scenarios
    case timeout, connectTimeout = "connect_timeout", http, followRedirects = "follow_redirects"
    case maxRedirects = "max_redirects", ca, insecure, maxBody = "max_body", retries, strategy, ips
    case ipVersion = "ip_version", headers, tags, request, expect
    case method, url, body, bodyBase64 = "body_base64", bodyFile = "body_file"
    case status, certificate, time, httpVersion = "http_version", redirects, finalURL = "final_url"
    case equals, contains, matches, absent, sha256, json, jsonExists = "json_exists"
    case minDaysLeft = "min_days_left", issuer, subject
    case total, connect, tls, firstByte = "first_byte"
    case `static`, httpdns, format, fallback
    case auth, scheme, secret, key, validFor = "valid_for", encrypt
    case answer, ipv6, ttl, serviceIPs = "service_ips"
    case capture, after, header
    case resolver, dns, within
    case minVersion = "min_version", maxVersion = "max_version", ciphers, tls13Ciphers = "tls13_ciphers", curves
    case profile, pins, cipher
    case clients, ip, subnet, labels, edges, retain
    case apps, app, android, ios, okhttp, pinWarn = "pin_warn"
    case networkSecurityConfig = "network_security_config", targetSDK = "target_sdk", debuggable, raw
    case infoPlist = "info_plist"
    case sdk, rank, port, expired, cache, persist, discardAfter = "discard_after"
    case grpc, health, messageBase64 = "message_base64", metadata, serving

    fileprivate static let all = allCases

    /// The texts to intern first, in `PlanKey` order (text index 1 is the first key).
    static let texts = all.map(\.rawValue)

    /// The key whose text has this index in a document parsed with `texts`.
    init?(textIndex: Int32) {
        let ordinal = Int(textIndex) - 1
        guard ordinal >= 0, ordinal < Self.all.count else { return nil }
        self = Self.all[ordinal]
    }
}

/// A mapping of a plan whose keys the runner defines (not hosts, header names or variables).
///
/// docs/plan-format.md has one key table per section, marked `<!-- keys: RAW VALUE -->`;
/// `PlanReferenceTests` holds the tables and these key sets to each other.
enum PlanSection: String, CaseIterable, Sendable {
    case top, defaults, scenario, request, expect
    /// The mapping form of a value under `expect.headers`.
    case headerMatcher = "header-matcher"
    /// The mapping form of `expect.certificate.issuer` and `subject`.
    case valueMatcher = "value-matcher"
    /// `expect.body`.
    case body
    /// `expect.certificate`.
    case certificate
    /// `expect.time`.
    case time
    /// One map under `domains:`.
    case domainMap = "domain-map"
    case httpdns
    /// `auth` of an `httpdns` map.
    case httpdnsAuth = "httpdns-auth"
    /// `answer` of an `httpdns` map in `format: json`.
    case httpdnsAnswer = "httpdns-answer"
    /// One named value under a scenario's `capture:`.
    case capture
    /// `expect.dns`.
    case dns = "expect-dns"
    /// `tls:` of `defaults` or a scenario.
    case tls
    /// `expect.tls`.
    case tlsExpect = "expect-tls"
    /// One population under the top-level `clients:`.
    case client
    /// One rule of `expect.edges`.
    case edgeRule = "edge-rule"
    /// One app under the top-level `apps:`.
    case app
    /// `android:` of an app.
    case appAndroid = "app-android"
    /// `ios:` of an app.
    case appIOS = "app-ios"
    /// `okhttp:` of an app.
    case appOkHttp = "app-okhttp"
    /// `sdk` of an `httpdns` map.
    case httpdnsSDK = "httpdns-sdk"
    /// `rank` of an `httpdns` map's `sdk`.
    case sdkRank = "sdk-rank"
    /// `cache` of an `httpdns` map's `sdk`.
    case sdkCache = "sdk-cache"
    /// `request.grpc`.
    case grpc
    /// `expect.grpc`.
    case grpcExpect = "expect-grpc"

    /// The keys this section accepts, in the order messages list them.
    var keys: KeySet {
        switch self {
        case .top: Keys.top.keySet
        case .defaults: Keys.defaults.keySet
        case .scenario: Keys.scenario.keySet
        case .request: Keys.request.keySet
        case .expect: Keys.expect.keySet
        case .headerMatcher: Keys.headerMatcher.keySet
        case .valueMatcher: Keys.valueMatcher.keySet
        case .body: Keys.body.keySet
        case .certificate: Keys.certificate.keySet
        case .time: Keys.time.keySet
        case .domainMap: Keys.domainMap.keySet
        case .httpdns: Keys.httpdns.keySet
        case .httpdnsAuth: Keys.httpdnsAuth.keySet
        case .httpdnsAnswer: Keys.httpdnsAnswer.keySet
        case .capture: Keys.capture.keySet
        case .dns: Keys.dns.keySet
        case .tls: Keys.tls.keySet
        case .tlsExpect: Keys.tlsExpect.keySet
        case .client: Keys.client.keySet
        case .edgeRule: Keys.edgeRule.keySet
        case .app: Keys.app.keySet
        case .appAndroid: Keys.appAndroid.keySet
        case .appIOS: Keys.appIOS.keySet
        case .appOkHttp: Keys.appOkHttp.keySet
        case .httpdnsSDK: Keys.httpdnsSDK.keySet
        case .sdkRank: Keys.sdkRank.keySet
        case .sdkCache: Keys.sdkCache.keySet
        case .grpc: Keys.grpc.keySet
        case .grpcExpect: Keys.grpcExpect.keySet
        }
    }
}

/// The keys of one section as an enum, in the order messages list them. Each section's decoder
/// switches over its enum with no `default`, so a key added to a section without a decoder is
/// a compile error rather than a value landing in another key's field.
///
/// Each case names its `PlanKey` in an exhaustive switch: a key's text is spelled once, in
/// `PlanKey`, so a section key that is not a plan key does not compile, and `PlanKeyTests`
/// checks the other way, that every plan key is some section's.
protocol SectionKey: CaseIterable, Equatable, Sendable where AllCases == [Self] {
    /// The plan key this is: its text, and the index the parser gives that text.
    var planKey: PlanKey { get }
}

extension SectionKey {
    /// The key as a plan writes it.
    var rawValue: String { planKey.rawValue }
}

enum TopLevelKey: SectionKey {
    case version, name, defaults, vars, clients, apps, domains, scenarios

    var planKey: PlanKey {
        switch self {
        case .version: .version
        case .name: .name
        case .defaults: .defaults
        case .vars: .vars
        case .clients: .clients
        case .apps: .apps
        case .domains: .domains
        case .scenarios: .scenarios
        }
    }
}

/// One app under the top-level `apps:`: the trust files of each platform it ships on.
enum AppKey: SectionKey {
    case android, ios, okhttp, pinWarn

    var planKey: PlanKey {
        switch self {
        case .android: .android
        case .ios: .ios
        case .okhttp: .okhttp
        case .pinWarn: .pinWarn
        }
    }
}

/// `android:` of an app.
enum AndroidAppKey: SectionKey {
    case networkSecurityConfig, targetSDK, debuggable, raw

    var planKey: PlanKey {
        switch self {
        case .networkSecurityConfig: .networkSecurityConfig
        case .targetSDK: .targetSDK
        case .debuggable: .debuggable
        case .raw: .raw
        }
    }
}

/// `ios:` of an app.
enum IOSAppKey: SectionKey {
    case infoPlist, version

    var planKey: PlanKey {
        switch self {
        case .infoPlist: .infoPlist
        case .version: .version
        }
    }
}

/// `okhttp:` of an app.
enum OkHttpAppKey: SectionKey {
    case pins

    var planKey: PlanKey {
        switch self {
        case .pins: .pins
        }
    }
}

/// One named user population under the top-level `clients:`.
enum ClientKey: SectionKey {
    case ip, subnet, labels

    var planKey: PlanKey {
        switch self {
        case .ip: .ip
        case .subnet: .subnet
        case .labels: .labels
        }
    }
}

/// The settings `defaults` holds and a scenario may override.
enum SettingKey: SectionKey {
    case timeout, connectTimeout, http, followRedirects
    case maxRedirects, ca, insecure, maxBody, retries, strategy, ips
    case ipVersion, domains, headers, resolver, tls, app

    var planKey: PlanKey {
        switch self {
        case .timeout: .timeout
        case .connectTimeout: .connectTimeout
        case .http: .http
        case .followRedirects: .followRedirects
        case .maxRedirects: .maxRedirects
        case .ca: .ca
        case .insecure: .insecure
        case .maxBody: .maxBody
        case .retries: .retries
        case .strategy: .strategy
        case .ips: .ips
        case .ipVersion: .ipVersion
        case .domains: .domains
        case .headers: .headers
        case .resolver: .resolver
        case .tls: .tls
        case .app: .app
        }
    }
}

/// A scenario's own keys, then every setting.
enum ScenarioKey: SectionKey {
    case name, tags, request, expect, capture, after
    case setting(SettingKey)

    static let allCases: [ScenarioKey] =
        [.name, .tags, .request, .expect, .capture, .after] + SettingKey.allCases.map(Self.setting)

    var planKey: PlanKey {
        switch self {
        case .name: .name
        case .tags: .tags
        case .request: .request
        case .expect: .expect
        case .capture: .capture
        case .after: .after
        case .setting(let setting): setting.planKey
        }
    }

    /// The setting this key is, nil for the scenario's own keys.
    var setting: SettingKey? {
        switch self {
        case .name, .tags, .request, .expect, .capture, .after: nil
        case .setting(let setting): setting
        }
    }
}

enum RequestKey: SectionKey {
    case method, url, headers, body, bodyBase64, bodyFile, insecure, grpc

    var planKey: PlanKey {
        switch self {
        case .method: .method
        case .url: .url
        case .headers: .headers
        case .body: .body
        case .bodyBase64: .bodyBase64
        case .bodyFile: .bodyFile
        case .insecure: .insecure
        case .grpc: .grpc
        }
    }
}

enum ExpectKey: SectionKey {
    case status, headers, body, certificate, time, httpVersion, redirects, finalURL, dns
    case tls, edges, grpc

    var planKey: PlanKey {
        switch self {
        case .status: .status
        case .headers: .headers
        case .body: .body
        case .certificate: .certificate
        case .time: .time
        case .httpVersion: .httpVersion
        case .redirects: .redirects
        case .finalURL: .finalURL
        case .dns: .dns
        case .tls: .tls
        case .edges: .edges
        case .grpc: .grpc
        }
    }
}

/// One rule of `expect.edges`: which clients, and where they may be sent.
enum EdgeRuleKey: SectionKey {
    case clients, within

    var planKey: PlanKey {
        switch self {
        case .clients: .clients
        case .within: .within
        }
    }
}

/// `tls:` of `defaults` or a scenario: what the client offers and accepts.
enum TLSKey: SectionKey {
    case minVersion, maxVersion, ciphers, tls13Ciphers, curves, profile

    var planKey: PlanKey {
        switch self {
        case .minVersion: .minVersion
        case .maxVersion: .maxVersion
        case .ciphers: .ciphers
        case .tls13Ciphers: .tls13Ciphers
        case .curves: .curves
        case .profile: .profile
        }
    }
}

/// `expect.tls`: what the handshake settled on.
enum TLSExpectKey: SectionKey {
    case version, cipher

    var planKey: PlanKey {
        switch self {
        case .version: .version
        case .cipher: .cipher
        }
    }
}

/// `expect.dns`.
enum DNSExpectKey: SectionKey {
    case within

    var planKey: PlanKey {
        switch self {
        case .within: .within
        }
    }
}

/// A string matcher's keys; `absent` only for header matchers.
enum MatcherKey: SectionKey {
    case equals, contains, matches, absent

    var planKey: PlanKey {
        switch self {
        case .equals: .equals
        case .contains: .contains
        case .matches: .matches
        case .absent: .absent
        }
    }
}

/// `expect.body`.
enum BodyKey: SectionKey {
    case equals, contains, matches, sha256, json, jsonExists

    var planKey: PlanKey {
        switch self {
        case .equals: .equals
        case .contains: .contains
        case .matches: .matches
        case .sha256: .sha256
        case .json: .json
        case .jsonExists: .jsonExists
        }
    }
}

/// `expect.certificate`.
enum CertificateKey: SectionKey {
    case minDaysLeft, issuer, subject, pins

    var planKey: PlanKey {
        switch self {
        case .minDaysLeft: .minDaysLeft
        case .issuer: .issuer
        case .subject: .subject
        case .pins: .pins
        }
    }
}

/// `expect.time`.
enum TimeKey: SectionKey {
    case total, connect, tls, firstByte

    var planKey: PlanKey {
        switch self {
        case .total: .total
        case .connect: .connect
        case .tls: .tls
        case .firstByte: .firstByte
        }
    }
}

enum DomainMapKey: SectionKey {
    case `static`, httpdns

    var planKey: PlanKey {
        switch self {
        case .`static`: .`static`
        case .httpdns: .httpdns
        }
    }
}

enum HTTPDNSKey: SectionKey {
    case format, url, method, serviceIPs, timeout, fallback, auth, answer, clients, retain, sdk

    var planKey: PlanKey {
        switch self {
        case .format: .format
        case .url: .url
        case .method: .method
        case .serviceIPs: .serviceIPs
        case .timeout: .timeout
        case .fallback: .fallback
        case .auth: .auth
        case .answer: .answer
        case .clients: .clients
        case .retain: .retain
        case .sdk: .sdk
        }
    }
}

/// `sdk` of an `httpdns` map: the app's SDK and the settings it gave it.
enum SDKKey: SectionKey {
    case profile, rank, expired, cache

    var planKey: PlanKey {
        switch self {
        case .profile: .profile
        case .rank: .rank
        case .expired: .expired
        case .cache: .cache
        }
    }
}

/// `rank` of an `sdk`: what the app configured its ranking with.
enum SDKRankKey: SectionKey {
    case port

    var planKey: PlanKey {
        switch self {
        case .port: .port
        }
    }
}

/// `request.grpc`: the call, and its metadata.
enum GRPCKey: SectionKey {
    case health, method, messageBase64, metadata

    var planKey: PlanKey {
        switch self {
        case .health: .health
        case .method: .method
        case .messageBase64: .messageBase64
        case .metadata: .metadata
        }
    }
}

/// `expect.grpc`: the call's status and a health check's serving status.
enum GRPCExpectKey: SectionKey {
    case status, serving

    var planKey: PlanKey {
        switch self {
        case .status: .status
        case .serving: .serving
        }
    }
}

/// `cache` of an `sdk`: the SDK's persistent cache.
enum SDKCacheKey: SectionKey {
    case persist, discardAfter

    var planKey: PlanKey {
        switch self {
        case .persist: .persist
        case .discardAfter: .discardAfter
        }
    }
}

/// `answer` of a `format: json` map: JSONPath selections.
enum HTTPDNSAnswerKey: SectionKey {
    case ips, ipv6, ttl

    var planKey: PlanKey {
        switch self {
        case .ips: .ips
        case .ipv6: .ipv6
        case .ttl: .ttl
        }
    }
}

/// `auth` of an `httpdns` map: `secret` for the signing schemes, `key` for the ciphers.
enum HTTPDNSAuthKey: SectionKey {
    case scheme, secret, key, validFor, encrypt

    var planKey: PlanKey {
        switch self {
        case .scheme: .scheme
        case .secret: .secret
        case .key: .key
        case .validFor: .validFor
        case .encrypt: .encrypt
        }
    }
}

/// One value under `capture:`: exactly one source, and whether it is secret.
enum CaptureKey: SectionKey {
    case json, header, body, secret

    var planKey: PlanKey {
        switch self {
        case .json: .json
        case .header: .header
        case .body: .body
        case .secret: .secret
        }
    }

    /// The keys that say where the value is: exactly one of them.
    static let sources: [CaptureKey] = [.json, .header, .body]
}

/// A section's keys: the mask for the unknown-key check, and each key by its interned text.
///
/// A class, made once per section (`Keys`): every mapping read copies it into its `Fields` and
/// their iterators, and one reference costs less to copy than the two arrays it holds.
final class SectionKeys<Key: SectionKey>: Sendable {
    let section: PlanSection
    let keySet: KeySet
    /// The section's key for each plan key, by `PlanKey` ordinal.
    private let byOrdinal: [Key?]

    init(_ section: PlanSection, excluding excluded: [Key] = []) {
        self.section = section
        let keys = Key.allCases.filter { !excluded.contains($0) }
        keySet = KeySet(keys.map(\.planKey))
        byOrdinal = PlanKey.all.map { planKey in keys.first { $0.planKey == planKey } }
    }

    func contains(_ key: PlanKey) -> Bool { keySet.contains(key) }

    /// The key whose text has this index in a document parsed with `PlanKey.texts`; nil when
    /// it is not one of this section's.
    func key(textIndex: Int32) -> Key? {
        let ordinal = Int(textIndex) - 1
        return ordinal >= 0 && ordinal < byOrdinal.count ? byOrdinal[ordinal] : nil
    }
}

/// Every section's keys, made once.
enum Keys {
    static let top = SectionKeys<TopLevelKey>(.top)
    static let defaults = SectionKeys<SettingKey>(.defaults)
    static let scenario = SectionKeys<ScenarioKey>(.scenario)
    static let request = SectionKeys<RequestKey>(.request)
    static let expect = SectionKeys<ExpectKey>(.expect)
    static let headerMatcher = SectionKeys<MatcherKey>(.headerMatcher)
    static let valueMatcher = SectionKeys<MatcherKey>(.valueMatcher, excluding: [.absent])
    static let body = SectionKeys<BodyKey>(.body)
    static let certificate = SectionKeys<CertificateKey>(.certificate)
    static let time = SectionKeys<TimeKey>(.time)
    static let domainMap = SectionKeys<DomainMapKey>(.domainMap)
    static let httpdns = SectionKeys<HTTPDNSKey>(.httpdns)
    static let httpdnsAuth = SectionKeys<HTTPDNSAuthKey>(.httpdnsAuth)
    static let httpdnsAnswer = SectionKeys<HTTPDNSAnswerKey>(.httpdnsAnswer)
    static let httpdnsSDK = SectionKeys<SDKKey>(.httpdnsSDK)
    static let sdkRank = SectionKeys<SDKRankKey>(.sdkRank)
    static let sdkCache = SectionKeys<SDKCacheKey>(.sdkCache)
    static let grpc = SectionKeys<GRPCKey>(.grpc)
    static let grpcExpect = SectionKeys<GRPCExpectKey>(.grpcExpect)
    static let client = SectionKeys<ClientKey>(.client)
    static let edgeRule = SectionKeys<EdgeRuleKey>(.edgeRule)
    static let app = SectionKeys<AppKey>(.app)
    static let appAndroid = SectionKeys<AndroidAppKey>(.appAndroid)
    static let appIOS = SectionKeys<IOSAppKey>(.appIOS)
    static let appOkHttp = SectionKeys<OkHttpAppKey>(.appOkHttp)
    static let capture = SectionKeys<CaptureKey>(.capture)
    static let dns = SectionKeys<DNSExpectKey>(.dns)
    static let tls = SectionKeys<TLSKey>(.tls)
    static let tlsExpect = SectionKeys<TLSExpectKey>(.tlsExpect)
}

/// The keys a mapping may hold.
struct KeySet: Sendable {
    /// In the order messages list them.
    let keys: [PlanKey]
    /// Bit `i` set when the key at position `i` of `PlanKey.allCases` is a member.
    private let members: UInt128
    static let capacity = UInt128.bitWidth

    init(_ keys: [PlanKey]) {
        precondition(PlanKey.all.count <= Self.capacity, "more plan keys than a KeySet holds")
        self.keys = keys
        members = PlanKey.all.enumerated().reduce(0) { mask, key in
            keys.contains(key.element) ? mask | 1 << UInt128(key.offset) : mask
        }
    }

    /// The keys as written, in the order messages list them.
    var names: [String] { keys.map(\.rawValue) }

    func contains(_ key: PlanKey) -> Bool { keys.contains(key) }

    /// Whether a scalar with this text index (in a document parsed with `PlanKey.texts`) is a member.
    func contains(textIndex: Int32) -> Bool {
        let ordinal = Int(textIndex) - 1
        return ordinal >= 0 && ordinal < Self.capacity && members & 1 << UInt128(ordinal) != 0
    }
}
