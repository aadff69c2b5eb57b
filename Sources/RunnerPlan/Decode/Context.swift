/// Where in the plan a value sits, for messages (`in request of scenario 'login'`).
///
/// Made for every section of every scenario and copied around a lot, so it is kept small and
/// cheap: the owner is shared (one allocation per scenario), the part is a plain enum, and the
/// words are only assembled when an error is reported.
struct Context: Sendable, CustomStringConvertible {
    enum Owner: Sendable {
        case topLevel
        case defaults
        case vars
        case domains
        case domainMap(String)
        case clients
        case client(String)
        case apps
        case app(String)
        /// Shown as `'login'` when the scenario's name (masked) is known, `#3` otherwise: the
        /// label is only put together when a message needs it.
        case scenario(number: Int, name: String?)
    }

    /// A section inside the owner.
    enum Part: String, Sendable {
        case request
        case requestHeaders = "request.headers"
        case headers
        case expect
        case expectHeaders = "expect.headers"
        case expectBody = "expect.body"
        case expectBodyJSON = "expect.body.json"
        case expectBodyJSONExists = "expect.body.json_exists"
        case expectCertificate = "expect.certificate"
        case expectCertificateIssuer = "expect.certificate.issuer"
        case expectCertificateSubject = "expect.certificate.subject"
        case expectTime = "expect.time"
        case expectDNS = "expect.dns"
        case expectTLS = "expect.tls"
        case expectEdges = "expect.edges"
        case tls
        case headerMatcher = "the matcher for header"
        case `static`
        case httpdns
        case httpdnsAuth = "httpdns.auth"
        case httpdnsAnswer = "httpdns.answer"
        case httpdnsSDK = "httpdns.sdk"
        case httpdnsSDKRank = "httpdns.sdk.rank"
        case httpdnsSDKCache = "httpdns.sdk.cache"
        case requestGRPC = "request.grpc"
        case expectGRPC = "expect.grpc"
        case capture
        case android
        case ios
        case okhttp
    }

    private final class SharedOwner: Sendable {
        let owner: Owner

        init(_ owner: Owner) {
            self.owner = owner
        }
    }

    private let shared: SharedOwner
    let part: Part?
    /// A name qualifying the part: `the matcher for header` + `Accept`.
    let partName: String?

    init(_ owner: Owner) {
        self.init(shared: SharedOwner(owner), part: nil, partName: nil)
    }

    private init(shared: SharedOwner, part: Part?, partName: String?) {
        self.shared = shared
        self.part = part
        self.partName = partName
    }

    var owner: Owner { shared.owner }

    func part(_ part: Part) -> Context { Context(shared: shared, part: part, partName: nil) }

    /// `in the matcher for header 'Accept' of …`, assembled only when shown.
    func part(_ part: Part, named partName: String) -> Context { Context(shared: shared, part: part, partName: partName) }

    var description: String {
        let ownerText: String
        switch owner {
        case .topLevel: return part.map { "in \($0.rawValue)" } ?? "at top level"
        case .defaults: ownerText = "defaults"
        case .vars: ownerText = "vars"
        case .domains: ownerText = "domains"
        case .domainMap(let name): ownerText = "domain map '\(name)'"
        case .clients: ownerText = "clients"
        case .client(let name): ownerText = "client '\(name)'"
        case .apps: ownerText = "apps"
        case .app(let name): ownerText = "app '\(name)'"
        case .scenario(let number, let name): ownerText = Self.scenarioLabel(number: number, name: name)
        }
        guard let part else { return "in \(ownerText)" }
        if let partName { return "in \(part.rawValue) '\(partName)' of \(ownerText)" }
        return "in \(part.rawValue) of \(ownerText)"
    }

    /// `scenario 'login'`, `scenario #3`.
    static func scenarioLabel(number: Int, name: String?) -> String {
        name.map { "scenario '\($0)'" } ?? "scenario #\(number)"
    }
}

/// What a value is for, in `expected …` messages: `'timeout' in defaults`.
///
/// Only made when a message needs it: the value readers take it as an autoclosure.
struct Site: Sendable, CustomStringConvertible {
    private enum Subject: Sendable {
        case key(String)
        case text(String)
        case named(String, String)
    }

    private var subject: Subject
    var context: Context

    init(key: String, _ context: Context) {
        subject = .key(key)
        self.context = context
    }

    /// `an item of 'tags'`, `header 'Accept'`: written as given.
    init(subject: String, _ context: Context) {
        self.subject = .text(subject)
        self.context = context
    }

    /// `header 'Accept'`: a kind of thing and its name.
    init(kind: String, name: String, _ context: Context) {
        subject = .named(kind, name)
        self.context = context
    }

    var description: String {
        switch subject {
        case .key(let key): return "'\(key)' \(context)"
        case .text(let text): return "\(text) \(context)"
        case .named(let kind, let name): return "\(kind) '\(name)' \(context)"
        }
    }
}
