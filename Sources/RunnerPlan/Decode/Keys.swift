/// A key some section of a plan accepts (plan-format.md).
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
    case equals, contains, matches, absent, sha256, json
    case minDaysLeft = "min_days_left", issuer, subject
    case total, connect, tls, firstByte = "first_byte"
    case `static`, httpdns, format, fallback
    case auth, scheme, secret, key, validFor = "valid_for"
    case answer, ipv6, ttl, serviceIPs = "service_ips"
    case capture, after, header
    case resolver, dns, within
    case minVersion = "min_version", maxVersion = "max_version", ciphers, tls13Ciphers = "tls13_ciphers", curves
    case profile, pins, cipher

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
        }
    }
}

/// The keys of one section as an enum, in the order messages list them. Each section's decoder
/// switches over its enum with no `default`, so a key added to a section without a decoder is
/// a compile error rather than a value landing in another key's field.
protocol SectionKey: RawRepresentable<String>, CaseIterable, Equatable, Sendable where AllCases == [Self] {}

enum TopLevelKey: String, SectionKey {
    case version, name, defaults, vars, domains, scenarios
}

/// The settings `defaults` holds and a scenario may override.
enum SettingKey: String, SectionKey {
    case timeout, connectTimeout = "connect_timeout", http, followRedirects = "follow_redirects"
    case maxRedirects = "max_redirects", ca, insecure, maxBody = "max_body", retries, strategy, ips
    case ipVersion = "ip_version", domains, headers, resolver, tls
}

/// A scenario's own keys, then every setting.
enum ScenarioKey: SectionKey {
    case name, tags, request, expect, capture, after
    case setting(SettingKey)

    static let allCases: [ScenarioKey] =
        [.name, .tags, .request, .expect, .capture, .after] + SettingKey.allCases.map(Self.setting)

    init?(rawValue: String) {
        if let setting = SettingKey(rawValue: rawValue) {
            self = .setting(setting)
            return
        }
        guard let own = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = own
    }

    var rawValue: String {
        switch self {
        case .name: "name"
        case .tags: "tags"
        case .request: "request"
        case .expect: "expect"
        case .capture: "capture"
        case .after: "after"
        case .setting(let setting): setting.rawValue
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

enum RequestKey: String, SectionKey {
    case method, url, headers, body, bodyBase64 = "body_base64", bodyFile = "body_file", insecure

    /// The keys that give a body: at most one of them.
    static let bodyKinds: [RequestKey] = [.body, .bodyBase64, .bodyFile]
}

enum ExpectKey: String, SectionKey {
    case status, headers, body, certificate, time, httpVersion = "http_version", redirects, finalURL = "final_url", dns
    case tls
}

/// `tls:` of `defaults` or a scenario: what the client offers and accepts.
enum TLSKey: String, SectionKey {
    case minVersion = "min_version", maxVersion = "max_version", ciphers, tls13Ciphers = "tls13_ciphers", curves, profile
}

/// `expect.tls`: what the handshake settled on.
enum TLSExpectKey: String, SectionKey {
    case version, cipher
}

/// `expect.dns`.
enum DNSExpectKey: String, SectionKey {
    case within
}

/// A string matcher's keys; `absent` only for header matchers.
enum MatcherKey: String, SectionKey {
    case equals, contains, matches, absent
}

/// `expect.body`.
enum BodyKey: String, SectionKey {
    case equals, contains, matches, sha256, json
}

/// `expect.certificate`.
enum CertificateKey: String, SectionKey {
    case minDaysLeft = "min_days_left", issuer, subject, pins
}

/// `expect.time`.
enum TimeKey: String, SectionKey {
    case total, connect, tls, firstByte = "first_byte"
}

enum DomainMapKey: String, SectionKey {
    case `static`, httpdns
}

enum HTTPDNSKey: String, SectionKey {
    case format, url, method, serviceIPs = "service_ips", timeout, fallback, auth, answer
}

/// `answer` of a `format: json` map: JSONPath selections.
enum HTTPDNSAnswerKey: String, SectionKey {
    case ips, ipv6, ttl
}

/// `auth` of an `httpdns` map: `secret` for the signing schemes, `key` for the ciphers.
enum HTTPDNSAuthKey: String, SectionKey {
    case scheme, secret, key, validFor = "valid_for"
}

/// One value under `capture:`: exactly one source, and whether it is secret.
enum CaptureKey: String, SectionKey {
    case json, header, body, secret

    /// The keys that say where the value is: exactly one of them.
    static let sources: [CaptureKey] = [.json, .header, .body]
}

/// A section's keys: the mask for the unknown-key check, and each key by its interned text.
struct SectionKeys<Key: SectionKey>: Sendable {
    let section: PlanSection
    let keySet: KeySet
    /// The section's key for each plan key, by `PlanKey` ordinal.
    private let byOrdinal: [Key?]

    init(_ section: PlanSection, excluding excluded: [Key] = []) {
        self.section = section
        let keys = Key.allCases.filter { !excluded.contains($0) }
        let planKeys = keys.compactMap { PlanKey(rawValue: $0.rawValue) }
        // Keys are recognised by their interned text, so each must be a PlanKey to be found.
        precondition(planKeys.count == keys.count, "every key of \(Key.self) must be a PlanKey")
        keySet = KeySet(planKeys)
        byOrdinal = PlanKey.allCases.map { planKey in keys.first { $0.rawValue == planKey.rawValue } }
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
