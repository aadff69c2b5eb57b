import RunnerPlan
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("Strategy rules: what each strategy puts on the wire", .timeLimit(.minutes(3)))
struct StrategyRulesTests {
    let tls = ConnectionTLS()

    func url(_ text: String) throws -> PlanURL {
        try #require(PlanURL.parse(text))
    }

    @Test func headerOnlyPutsTheIPInTheURLAndTheHostInHost() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("http://api.example.com:8080/v1/x?q=1"), strategy: .headerOnly,
            ip: IPAddress("203.0.113.10"), tls: tls, http: .auto)
        #expect(plan.connection.urlSent == "http://203.0.113.10:8080/v1/x?q=1")
        #expect(plan.connection.setsHostHeader && plan.connection.hostHeader == "api.example.com:8080")
        #expect(plan.connection.connectTo == nil)
        #expect(plan.connection.sni == nil)
        #expect(plan.connection.tls.verifyName == nil)
    }

    @Test func hostHeaderOmitsTheDefaultPort() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("http://api.example.com/"), strategy: .headerOnly, ip: IPAddress("203.0.113.10"), tls: tls, http: .auto)
        #expect(plan.connection.urlSent == "http://203.0.113.10/")
        #expect(plan.connection.setsHostHeader && plan.connection.hostHeader == "api.example.com")
    }

    @Test func trustOverrideSendsNoSNIAndVerifiesTheOriginalHost() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("https://api.example.com/login"), strategy: .trustOverride, ip: IPAddress("203.0.113.10"),
            tls: tls, http: .auto)
        #expect(plan.connection.urlSent == "https://203.0.113.10/login")
        #expect(plan.connection.setsHostHeader && plan.connection.hostHeader == "api.example.com")
        #expect(plan.connection.sni == nil)
        #expect(plan.connection.tls.verifyName == "api.example.com")
    }

    @Test func sniResolveKeepsTheURLAndPinsWithConnectTo() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("https://api.example.com:8443/login"), strategy: .sniResolve, ip: IPAddress("203.0.113.10"),
            tls: tls, http: .auto)
        #expect(plan.connection.urlSent == "https://api.example.com:8443/login")
        #expect(plan.connection.connectTo == "api.example.com:8443:203.0.113.10:8443")
        #expect(!plan.connection.setsHostHeader)
        #expect(plan.connection.hostHeader == "api.example.com:8443")
        #expect(plan.connection.sni == "api.example.com")
        #expect(plan.connection.tls.verifyName == nil)
    }

    @Test func ipv6AddressesAreBracketedInURLsAndConnectTo() throws {
        let ip = IPAddress("2001:db8::10")
        let headerOnly = StrategyRules.wirePlan(url: try url("http://v6.example.com/"), strategy: .headerOnly, ip: ip, tls: tls, http: .auto)
        #expect(headerOnly.connection.urlSent == "http://[2001:db8::10]/")
        let sni = StrategyRules.wirePlan(url: try url("https://v6.example.com/"), strategy: .sniResolve, ip: ip, tls: tls, http: .auto)
        #expect(sni.connection.connectTo == "v6.example.com:443:[2001:db8::10]:443")
    }

    @Test func systemPinsNothing() throws {
        let plan = StrategyRules.wirePlan(url: try url("https://api.example.com/"), strategy: .system, ip: nil, tls: tls, http: .auto)
        #expect(plan.connection.urlSent == "https://api.example.com/")
        #expect(plan.pinnedIP == nil && plan.connection.connectTo == nil && !plan.connection.setsHostHeader)
        #expect(plan.connection.sni == "api.example.com")
    }

    @Test(arguments: [
        ("http://a.example/", StrategyKind.headerOnly),
        ("https://a.example/", StrategyKind.sniResolve),
    ])
    func autoPicksByScheme(text: String, expected: StrategyKind) throws {
        let plan = StrategyRules.wirePlan(url: try url(text), strategy: .auto, ip: IPAddress("192.0.2.1"), tls: tls, http: .auto)
        #expect(plan.strategy == expected)
    }

    @Test func incompatibleStrategiesAreNamed() {
        #expect(StrategyRules.incompatibility(.headerOnly, with: .https)?.contains("use 'trust-override' or 'sni-resolve'") == true)
        #expect(StrategyRules.incompatibility(.trustOverride, with: .http)?.contains("needs an https:// URL") == true)
        #expect(StrategyRules.incompatibility(.sniResolve, with: .http) == nil)
    }

    /// The reuse rule: a connection is shared only by the same scheme, host, port, IP, strategy
    /// and TLS settings. Distinct identities must get distinct pool keys.
    @Test func poolKeysSeparateEveryIdentity() throws {
        let base = try url("https://api.example.com/")
        let ip1 = IPAddress("192.0.2.1")
        let ip2 = IPAddress("192.0.2.2")
        let key = { (u: PlanURL, s: StrategyKind, ip: IPAddress?, t: ConnectionTLS, http: HTTPVersion) in
            StrategyRules.wirePlan(url: u, strategy: s, ip: ip, tls: t, http: http).poolKey
        }
        let reference = key(base, .trustOverride, ip1, tls, .auto)
        #expect(reference == key(base, .trustOverride, ip1, tls, .auto))
        #expect(reference != key(try url("https://other.example.com/"), .trustOverride, ip1, tls, .auto))
        #expect(reference != key(base, .trustOverride, ip2, tls, .auto))
        #expect(reference != key(base, .sniResolve, ip1, tls, .auto))
        #expect(reference != key(try url("https://api.example.com:8443/"), .trustOverride, ip1, tls, .auto))
        #expect(reference != key(base, .trustOverride, ip1, ConnectionTLS(caFile: "ca.pem"), .auto))
        #expect(reference != key(base, .trustOverride, ip1, ConnectionTLS(insecure: true), .auto))
        #expect(reference != key(base, .trustOverride, ip1, ConnectionTLS(client: ClientTLS(profile: .iosATS)), .auto))
        #expect(reference != key(base, .trustOverride, ip1, tls, .http2))
    }
}
