/// A key the runner knows, written in a section that does not take it: where it belongs.
///
/// A new user naturally writes `request: {url: …, timeout: 1s}` or puts `status:` beside
/// `url:`; "unknown key" alone would send them to the reference, so the message names the
/// section the key belongs to and the line to move it to.
struct MisplacedKey {
    /// Where the key belongs, relative to the section it was written in.
    enum Home {
        /// A scenario key written inside `request` or `expect`: up one level.
        case scenario(besideSection: PlanKey)
        /// A request or expect key written beside them or in the other one.
        case section(PlanKey)
        /// A setting written at the top level: under `defaults`.
        case defaults
        /// A request, expect or scenario key at the top level or in `defaults`: only a scenario sets it.
        case eachScenario(section: PlanKey?)
        /// An `httpdns` key written directly in a domain map.
        case httpdns
        /// `static` written inside `httpdns`.
        case domainMap
        /// An `auth` key written directly in `httpdns`.
        case auth
        /// An `sdk` key written directly in `httpdns`.
        case sdk
        /// An `answer` key (`ipv6`, `ttl`) written directly in `httpdns`.
        case answer
    }

    let key: PlanKey
    let home: Home

    /// Where `key`, unknown in `section`, belongs; nil when it belongs nowhere near.
    init?(_ key: PlanKey, in section: PlanSection) {
        self.key = key
        let isSetting = Keys.defaults.contains(key)
        // `body` is both a request and an expect key: outside them, a request body is meant.
        let inRequest = Keys.request.contains(key)
        let inExpect = Keys.expect.contains(key)
        switch section {
        case .request, .expect:
            let other: PlanKey = section == .request ? .expect : .request
            if Keys.scenario.contains(key) {
                home = .scenario(besideSection: section == .request ? .request : .expect)
            } else if other == .expect ? inExpect : inRequest {
                home = .section(other)
            } else {
                return nil
            }
        case .scenario:
            if inRequest {
                home = .section(.request)
            } else if inExpect {
                home = .section(.expect)
            } else {
                return nil
            }
        case .top, .defaults:
            if section == .top && isSetting {
                home = .defaults
            } else if inRequest {
                home = .eachScenario(section: .request)
            } else if inExpect {
                home = .eachScenario(section: .expect)
            } else if Keys.scenario.contains(key) {
                home = .eachScenario(section: nil)
            } else {
                return nil
            }
        case .domainMap:
            guard Keys.httpdns.contains(key) else { return nil }
            home = .httpdns
        case .httpdns:
            if key == .static {
                home = .domainMap
            } else if Keys.httpdnsAuth.contains(key) {
                home = .auth
            } else if Keys.httpdnsAnswer.contains(key) {
                home = .answer
            } else if Keys.httpdnsSDK.contains(key) {
                home = .sdk
            } else {
                return nil
            }
        case .headerMatcher, .valueMatcher, .body, .certificate, .time, .httpdnsAuth, .httpdnsAnswer, .capture, .dns, .tls,
            .tlsExpect, .client, .edgeRule, .app, .appAndroid, .appIOS, .appOkHttp, .httpdnsSDK, .sdkRank, .sdkCache, .grpc,
            .grpcExpect:
            return nil
        }
    }

    /// What follows `unknown key 'K' in …; `: the key's home and where to move it.
    ///
    /// - Parameter siblings: the mapping that holds the sections named in the advice (the
    ///   scenario for `request`/`expect`, the top level for `defaults`, the map for `httpdns`),
    ///   so the message can give the line of the one to move it to.
    func advice(section: PlanSection, siblings: YAMLMapping?) -> String {
        let name = "'\(key.rawValue)'"
        switch home {
        case .scenario(let beside):
            let also = Keys.defaults.contains(key) ? " (defaults may set it for every scenario)" : ""
            return "\(name) is a scenario key\(also): move it out of '\(beside.rawValue)', up one level"
                + " beside '\(beside.rawValue):'\(Self.line(of: beside, in: siblings))"
        case .section(let target):
            // `http_version` in a request is usually meant to choose the version sent.
            let choose = key == .httpVersion && section == .request
                ? " (what the response must use; the scenario key 'http' chooses what is offered)" : ""
            return "\(name) is \(Self.article(target)) \(target.rawValue) key\(choose): move it under "
                + Self.destination(target, in: siblings, owner: "scenario")
        case .defaults:
            return "\(name) is a scenario setting: move it under "
                + Self.destination(.defaults, in: siblings, owner: "plan")
                + " to set it for every scenario, or into a scenario"
        case .eachScenario(let target):
            let where_ = section == .defaults ? "defaults cannot set it" : "it is set per scenario"
            guard let target else { return "\(name) is a scenario key; \(where_): write it in each scenario" }
            return "\(name) is \(Self.article(target)) \(target.rawValue) key; \(where_): write it under each scenario's '\(target.rawValue):'"
        case .httpdns:
            if key == .clients, Self.line(of: .static, in: siblings) != "" {
                // A list answers every client alike: there is nothing to ask as a population.
                return "'clients' asks an HTTPDNS service as each user population; a static map gives every client the same addresses"
            }
            return "\(name) is an httpdns key: move it under " + Self.destination(.httpdns, in: siblings, owner: "map")
        case .domainMap:
            return "\(name) is a domain map key: give the map either 'static' or 'httpdns', not both"
        case .auth:
            return "\(name) is an auth key: move it under " + Self.destination(.auth, in: siblings, owner: "httpdns mapping")
        case .answer:
            return "\(name) is an answer key of 'format: json': move it under "
                + Self.destination(.answer, in: siblings, owner: "httpdns mapping")
        case .sdk:
            return "\(name) is an sdk key: move it under " + Self.destination(.sdk, in: siblings, owner: "httpdns mapping")
        }
    }

    private static func article(_ key: PlanKey) -> String {
        key == .expect ? "an" : "a"
    }

    /// `'expect:' (line 7)`, or `a new 'expect:' in the scenario` when there is none yet.
    private static func destination(_ key: PlanKey, in siblings: YAMLMapping?, owner: String) -> String {
        let line = line(of: key, in: siblings)
        return line.isEmpty ? "a new '\(key.rawValue):' in the \(owner)" : "'\(key.rawValue):'\(line)"
    }

    /// ` (line N)` for the key in `siblings`, empty when it is not there.
    private static func line(of key: PlanKey, in siblings: YAMLMapping?) -> String {
        guard let siblings else { return "" }
        for position in 0..<siblings.count {
            if let index = siblings.keyTextIndex(at: position), PlanKey(textIndex: index) == key {
                return " (line \(siblings.keyNode(at: position).mark.line))"
            }
        }
        return ""
    }
}
