import RunnerPlan
import Testing

@testable import RunnerEngine
import RunnerVocabulary

@Suite("Strategy rules: what each strategy puts on the wire", .timeLimit(.minutes(3)))
struct StrategyRulesTests {
    let tls = TLSIdentity(caFile: nil, insecure: false, http: .auto)

    func url(_ text: String) throws -> PlanURL {
        try #require(PlanURL.parse(text))
    }

    @Test func headerOnlyPutsTheIPInTheURLAndTheHostInHost() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("http://api.example.com:8080/v1/x?q=1"), strategy: .headerOnly,
            ip: IPAddress("203.0.113.10"), tls: tls)
        #expect(plan.urlSent == "http://203.0.113.10:8080/v1/x?q=1")
        #expect(plan.explicitHostHeader == "api.example.com:8080")
        #expect(plan.connectTo == nil)
        #expect(plan.sni == nil)
        #expect(plan.verifyName == nil)
    }

    @Test func hostHeaderOmitsTheDefaultPort() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("http://api.example.com/"), strategy: .headerOnly, ip: IPAddress("203.0.113.10"), tls: tls)
        #expect(plan.urlSent == "http://203.0.113.10/")
        #expect(plan.explicitHostHeader == "api.example.com")
    }

    @Test func trustOverrideSendsNoSNIAndVerifiesTheOriginalHost() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("https://api.example.com/login"), strategy: .trustOverride, ip: IPAddress("203.0.113.10"),
            tls: tls)
        #expect(plan.urlSent == "https://203.0.113.10/login")
        #expect(plan.explicitHostHeader == "api.example.com")
        #expect(plan.sni == nil)
        #expect(plan.verifyName == "api.example.com")
    }

    @Test func sniResolveKeepsTheURLAndPinsWithConnectTo() throws {
        let plan = StrategyRules.wirePlan(
            url: try url("https://api.example.com:8443/login"), strategy: .sniResolve, ip: IPAddress("203.0.113.10"),
            tls: tls)
        #expect(plan.urlSent == "https://api.example.com:8443/login")
        #expect(plan.connectTo == "api.example.com:8443:203.0.113.10:8443")
        #expect(plan.explicitHostHeader == nil)
        #expect(plan.hostHeader == "api.example.com:8443")
        #expect(plan.sni == "api.example.com")
        #expect(plan.verifyName == nil)
    }

    @Test func ipv6AddressesAreBracketedInURLsAndConnectTo() throws {
        let ip = IPAddress("2001:db8::10")
        let headerOnly = StrategyRules.wirePlan(url: try url("http://v6.example.com/"), strategy: .headerOnly, ip: ip, tls: tls)
        #expect(headerOnly.urlSent == "http://[2001:db8::10]/")
        let sni = StrategyRules.wirePlan(url: try url("https://v6.example.com/"), strategy: .sniResolve, ip: ip, tls: tls)
        #expect(sni.connectTo == "v6.example.com:443:[2001:db8::10]:443")
    }

    @Test func systemPinsNothing() throws {
        let plan = StrategyRules.wirePlan(url: try url("https://api.example.com/"), strategy: .system, ip: nil, tls: tls)
        #expect(plan.urlSent == "https://api.example.com/")
        #expect(plan.pinnedIP == nil && plan.connectTo == nil && plan.explicitHostHeader == nil)
        #expect(plan.sni == "api.example.com")
    }

    @Test(arguments: [
        ("http://a.example/", StrategyKind.headerOnly),
        ("https://a.example/", StrategyKind.sniResolve),
    ])
    func autoPicksByScheme(text: String, expected: StrategyKind) throws {
        let plan = StrategyRules.wirePlan(url: try url(text), strategy: .auto, ip: IPAddress("192.0.2.1"), tls: tls)
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
        let key = { (u: PlanURL, s: StrategyKind, ip: IPAddress?, t: TLSIdentity) in
            StrategyRules.wirePlan(url: u, strategy: s, ip: ip, tls: t).poolKey
        }
        let reference = key(base, .trustOverride, ip1, tls)
        #expect(reference == key(base, .trustOverride, ip1, tls))
        #expect(reference != key(try url("https://other.example.com/"), .trustOverride, ip1, tls))
        #expect(reference != key(base, .trustOverride, ip2, tls))
        #expect(reference != key(base, .sniResolve, ip1, tls))
        #expect(reference != key(try url("https://api.example.com:8443/"), .trustOverride, ip1, tls))
        #expect(reference != key(base, .trustOverride, ip1, TLSIdentity(caFile: "ca.pem", insecure: false, http: .auto)))
        #expect(reference != key(base, .trustOverride, ip1, TLSIdentity(caFile: nil, insecure: true, http: .auto)))
    }
}
