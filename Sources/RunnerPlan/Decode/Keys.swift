/// A key some section of a plan accepts (plan-format.md).
///
/// `PlanLoader` has the parser intern these texts first, so a key written in a plan is
/// recognised by its text index rather than by comparing strings (a large plan holds millions
/// of keys). Key sets are 64-bit masks: there may be at most 64 keys.
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

    /// The keys this section accepts, in the order messages list them.
    var keys: KeySet {
        switch self {
        case .top: Keys.topLevel
        case .defaults: Keys.defaults
        case .scenario: Keys.scenario
        case .request: Keys.request
        case .expect: Keys.expect
        case .headerMatcher: Keys.headerMatcher
        case .valueMatcher: Keys.valueMatcher
        case .body: Keys.bodyMatcher
        case .certificate: Keys.certificate
        case .time: Keys.time
        case .domainMap: Keys.domainMap
        case .httpdns: Keys.httpdns
        }
    }
}

/// The key sets of the sections, made once.
enum Keys {
    static let topLevel = KeySet([.version, .name, .defaults, .vars, .domains, .scenarios])
    static let settings: [PlanKey] = [
        .timeout, .connectTimeout, .http, .followRedirects, .maxRedirects, .ca, .insecure,
        .maxBody, .retries, .strategy, .ips, .ipVersion, .domains, .headers,
    ]
    static let defaults = KeySet(settings)
    static let scenario = KeySet([.name, .tags, .request, .expect] + settings)
    static let request = KeySet([.method, .url, .headers, .body, .bodyBase64, .bodyFile, .insecure])
    static let bodyKinds: [PlanKey] = [.body, .bodyBase64, .bodyFile]
    static let expect = KeySet([.status, .headers, .body, .certificate, .time, .httpVersion, .redirects, .finalURL])
    static let headerMatcher = KeySet([.equals, .contains, .matches, .absent])
    static let valueMatcher = KeySet([.equals, .contains, .matches])
    static let bodyMatcher = KeySet([.equals, .contains, .matches, .sha256, .json])
    static let certificate = KeySet([.minDaysLeft, .issuer, .subject])
    static let time = KeySet([.total, .connect, .tls, .firstByte])
    static let domainMap = KeySet([.static, .httpdns])
    static let httpdns = KeySet([.format, .url, .timeout, .fallback])
}

/// The keys a mapping may hold.
struct KeySet: Sendable {
    /// In the order messages list them.
    let keys: [PlanKey]
    /// Bit `i` set when the key at position `i` of `PlanKey.allCases` is a member.
    private let members: UInt64

    init(_ keys: [PlanKey]) {
        self.keys = keys
        members = PlanKey.all.enumerated().reduce(0) { mask, key in
            keys.contains(key.element) ? mask | 1 << UInt64(key.offset) : mask
        }
    }

    /// The keys as written, in the order messages list them.
    var names: [String] { keys.map(\.rawValue) }

    func contains(_ key: PlanKey) -> Bool { keys.contains(key) }

    /// Whether a scalar with this text index (in a document parsed with `PlanKey.texts`) is a member.
    func contains(textIndex: Int32) -> Bool {
        let ordinal = Int(textIndex) - 1
        return ordinal >= 0 && ordinal < 64 && members & 1 << UInt64(ordinal) != 0
    }
}
