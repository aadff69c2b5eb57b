import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// `sdk:` of an HTTPDNS map: each profile's defaults, what the keys override, the map's
/// effective `fallback`, `retain: sdk`'s window, and every refusal as its message reads.
@Suite("The SDK profile of an HTTPDNS map")
struct SDKProfileDecodingTests {
    /// A map `m` with `sdk` (and `extra` lines under `httpdns`); the sdk value sits on line 7.
    static func plan(sdk: String?, extra: [String] = [], hosts: [String] = ["api.example.com"]) -> String {
        var lines = [
            "version: 1", "domains:", "  m:", "    httpdns:", "      format: dnspod", "      url: \"http://192.0.2.1/d?dn={host}\"",
        ]
        if let sdk { lines.append("      sdk: \(sdk)") }
        lines += extra.map { "      \($0)" }
        lines.append("scenarios:")
        for (index, host) in hosts.enumerated() {
            lines += ["  - name: s\(index)", "    domains: m", "    request: {url: \"https://\(host)/\"}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func spec(_ yaml: String) throws -> HTTPDNSSpec {
        let workspace = try PlanWorkspace()
        let plan = try PlanLoader.load(path: try workspace.write("plan.yaml", yaml), variables: [:], environment: [:])
        guard case .httpdns(let spec)? = plan.domainMaps.first?.source else {
            Issue.record("no httpdns map")
            throw CancellationError()
        }
        return spec
    }

    /// `line:column: message` of each error.
    func errors(_ yaml: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("plan.yaml", yaml)
        return loadErrors(path).map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)" }
    }

    // MARK: Defaults and overrides

    @Test("each profile's defaults: no ranking, its expired-answer reuse, no persistent cache, its fallback")
    func defaults() throws {
        let expected: [(SDKProfile.Kind, SDKProfile.ExpiredAnswers, HTTPDNSSpec.Fallback)] = [
            (.alibabaAndroid, .unlimited, .none),
            (.alibabaIOS, .off, .none),
            (.tencentAndroid, .off, .system),
            (.tencentIOS, .off, .system),
            (.volcengine, .upTo(.seconds(60)), .system),
        ]
        for (kind, expired, fallback) in expected {
            let spec = try spec(Self.plan(sdk: "{profile: \(kind.rawValue)}"))
            let sdk = try #require(spec.sdk)
            #expect(sdk.kind == kind)
            #expect(sdk.ranking == nil, "\(kind): ranking is off unless the app configures it")
            #expect(sdk.expiredAnswers == expired, "\(kind)")
            #expect(sdk.persistentCache == SDKProfile.PersistentCache(enabled: false, discardAfter: .seconds(365 * 86_400)), "\(kind)")
            #expect(spec.fallback == fallback, "\(kind)")
        }
    }

    @Test("rank takes the profile's port, timeout, failure score, families and address limits")
    func rankingDefaults() throws {
        let android = try spec(Self.plan(sdk: "{profile: alibaba-android, rank: {port: 443}}")).sdk?.ranking
        #expect(android == SDKProfile.Ranking(
            port: 443, connectTimeout: .seconds(5), failureScore: .last, families: .ipv4, minimumAddresses: 2))
        let ios = try spec(Self.plan(sdk: "{profile: alibaba-ios, rank: {}}")).sdk?.ranking
        #expect(ios == SDKProfile.Ranking(
            port: 80, connectTimeout: .seconds(2), failureScore: .last, families: .ipv4AndIPv6, minimumAddresses: 2))
        let tencent = try spec(Self.plan(sdk: "{profile: tencent-android, rank: {}}")).sdk?.ranking
        #expect(tencent == SDKProfile.Ranking(
            port: 8080, connectTimeout: .seconds(10), failureScore: .time(.seconds(10)), families: .ipv4, minimumAddresses: 2,
            maximumHosts: 10))
        let tencentIOS = try spec(Self.plan(sdk: "{profile: tencent-ios, rank: {port: 8443}}")).sdk?.ranking
        #expect(tencentIOS == SDKProfile.Ranking(
            port: 8443, connectTimeout: .seconds(10), failureScore: .time(.seconds(600)), families: .ipv4AndIPv6,
            minimumAddresses: 2, maximumAddresses: 9))
        #expect(try spec(Self.plan(sdk: "{profile: alibaba-ios, rank: false}")).sdk?.ranking == nil)
        // `rank: false` is no ranking, which every profile has.
        #expect(try spec(Self.plan(sdk: "{profile: volcengine, rank: false}")).sdk?.ranking == nil)
    }

    @Test("expired and cache override the profile's defaults")
    func overrides() throws {
        #expect(try spec(Self.plan(sdk: "{profile: alibaba-android, expired: false}")).sdk?.expiredAnswers == .off)
        #expect(try spec(Self.plan(sdk: "{profile: tencent-ios, expired: true}")).sdk?.expiredAnswers == .unlimited)
        #expect(try spec(Self.plan(sdk: "{profile: volcengine, expired: true}")).sdk?.expiredAnswers == .upTo(.seconds(60)))
        #expect(try spec(Self.plan(sdk: "{profile: volcengine, expired: 2m}")).sdk?.expiredAnswers == .upTo(.seconds(120)))
        let cache = try spec(Self.plan(sdk: "{profile: alibaba-ios, cache: {persist: true, discard_after: 7d}}")).sdk?.persistentCache
        #expect(cache == SDKProfile.PersistentCache(enabled: true, discardAfter: .seconds(7 * 86_400)))
        #expect(try spec(Self.plan(sdk: "{profile: alibaba-ios, cache: {discard_after: 365d}}")).sdk?.persistentCache.discardAfter
            == SDKProfile.maximumDiscardAfter)
    }

    // MARK: The effective fallback

    @Test("the map's fallback wins over the profile's; without sdk it stays none")
    func fallbackResolution() throws {
        #expect(try spec(Self.plan(sdk: "{profile: tencent-android}", extra: ["fallback: none"])).fallback == .none)
        #expect(try spec(Self.plan(sdk: "{profile: alibaba-ios}", extra: ["fallback: system"])).fallback == .system)
        #expect(try spec(Self.plan(sdk: nil)).fallback == .none)
        // The profile's `system` reaches the scenario's resolver as a written one does.
        let workspace = try PlanWorkspace()
        let plan = try PlanLoader.load(
            path: try workspace.write("plan.yaml", Self.plan(sdk: "{profile: tencent-ios}")), variables: [:], environment: [:])
        #expect(Plan.mapsReachingSystemResolver(plan.domainMaps).contains("m"))
    }

    // MARK: retain: sdk

    @Test("retain: sdk is the TTL, then the longer of expired-answer reuse and the persistent cache, capped at 30 days without one")
    func retainWindow() throws {
        let day: Int64 = 86_400
        func window(_ sdk: String, ttl: Int64?) throws -> Duration? {
            try spec(Self.plan(sdk: sdk, extra: ["retain: sdk"])).retentionWindow(ttl: ttl.map { .seconds($0) })
        }
        #expect(try spec(Self.plan(sdk: "{profile: alibaba-ios}", extra: ["retain: sdk"])).retain == .sdk)
        #expect(try window("{profile: alibaba-ios}", ttl: 60) == .seconds(60))
        #expect(try window("{profile: alibaba-ios}", ttl: nil) == .zero)
        #expect(try window("{profile: volcengine}", ttl: 60) == .seconds(120))
        // Alibaba Android hands out an expired answer with no limit: the 30 days retain allows.
        #expect(try window("{profile: alibaba-android}", ttl: 60) == .seconds(30 * day))
        // Tencent honours at most 6,000 s of TTL.
        #expect(try window("{profile: tencent-android}", ttl: 86_400) == .seconds(6000))
        #expect(try window("{profile: tencent-android, expired: 10m}", ttl: 60) == .seconds(660))
        #expect(try window("{profile: alibaba-ios, cache: {persist: true, discard_after: 7d}}", ttl: 60) == .seconds(7 * day + 60))
        // A persistent cache kept longer than 30 days is the window the map asks for.
        #expect(try window("{profile: alibaba-ios, cache: {persist: true}}", ttl: 60) == .seconds(365 * day + 60))
        #expect(try window("{profile: alibaba-android, cache: {persist: true, discard_after: 1h}}", ttl: 60) == .seconds(30 * day))
        // Not persisted, discard_after changes nothing.
        #expect(try window("{profile: alibaba-ios, cache: {discard_after: 40d}}", ttl: 60) == .seconds(60))
    }

    @Test("retain: DURATION means what it did, whatever the TTL and the sdk")
    func retainDuration() throws {
        let spec = try spec(Self.plan(sdk: "{profile: alibaba-android}", extra: ["retain: 24h"]))
        #expect(spec.retain == .duration(.seconds(86_400)))
        #expect(spec.retentionWindow(ttl: .seconds(60)) == .seconds(86_400))
        #expect(try self.spec(Self.plan(sdk: nil, extra: ["retain: 1h"])).retentionWindow(ttl: nil) == .seconds(3600))
        #expect(try self.spec(Self.plan(sdk: nil)).retentionWindow(ttl: .seconds(60)) == nil)
    }

    // MARK: Refusals

    @Test("an unknown profile is refused with a suggestion; a missing one is required")
    func unknownProfile() throws {
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-andriod}")) == [
            "7:22: expected one of 'alibaba-android', 'alibaba-ios', 'tencent-android', 'tencent-ios', 'volcengine' for 'profile' "
                + "in httpdns.sdk of domain map 'm', got 'alibaba-andriod'; did you mean 'alibaba-android'?",
        ])
        #expect(try errors(Self.plan(sdk: "{expired: true}")) == [
            "7:7: missing required key 'profile' in httpdns.sdk of domain map 'm': the app's SDK, e.g. profile: alibaba-android",
        ])
    }

    @Test("rank is refused on a profile that cannot rank, without a port where there is no default, and as anything but a mapping or false")
    func rankRefusals() throws {
        #expect(try errors(Self.plan(sdk: "{profile: volcengine, rank: {port: 443}}")) == [
            "7:34: 'rank' in httpdns.sdk of domain map 'm': profile 'volcengine' does not rank addresses (the SDK has no IP ranking); remove it",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-android, rank: {}}")) == [
            "7:39: missing required key 'port' in httpdns.sdk.rank of domain map 'm': profile 'alibaba-android' ranks on the port "
                + "the app names (IPRankingBean(host, port)) and has no default, e.g. rank: {port: 443}",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, rank: true}")) == [
            "7:41: expected a mapping such as {port: 443}, or false, for 'rank' in httpdns.sdk of domain map 'm', got 'true'",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, rank: {port: 70000}}")) == [
            "7:48: expected an integer from 1 to 65535 for 'port' in httpdns.sdk.rank of domain map 'm', got '70000'",
        ])
    }

    @Test("a tencent-android map that ranks is refused when its scenarios ask it for more than 10 hosts")
    func tencentRanksTenHosts() throws {
        let ten = (1...10).map { "h\($0).example.com" }
        #expect(try errors(Self.plan(sdk: "{profile: tencent-android, rank: {}}", hosts: ten)) == [])
        #expect(try errors(Self.plan(sdk: "{profile: tencent-android, rank: {}}", hosts: ten + ["h11.example.com", "h12.example.com"])) == [
            "7:39: profile 'tencent-android' ranks at most 10 hosts, but the scenarios on domain map 'm' ask it for 12: "
                + (1...11).map { "'h\($0).example.com'" }.joined(separator: ", ") + ", …; the app cannot rank them all",
        ])
        // Without rank, or on a profile with no such limit, any number is fine.
        #expect(try errors(Self.plan(sdk: "{profile: tencent-android}", hosts: ten + ["h11.example.com"])) == [])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, rank: {}}", hosts: ten + ["h11.example.com"])) == [])
    }

    @Test("a persisted window over a year, and durations that are not durations, are refused")
    func durationRefusals() throws {
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, cache: {persist: true, discard_after: 366d}}")) == [
            "7:73: expected a duration of at most a year (365d) for 'discard_after' in httpdns.sdk.cache of domain map 'm', "
                + "got '366d': the SDKs keep a persisted answer at most a year past its TTL",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, cache: {discard_after: forever}}")) == [
            "7:58: expected a duration with a unit such as '3s' or '250ms' for 'discard_after' in httpdns.sdk.cache of domain map 'm', "
                + "got 'forever'",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: volcengine, expired: soon}")) == [
            "7:43: expected true, false or a duration such as '60s' for 'expired' in httpdns.sdk of domain map 'm', got 'soon'",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios, cache: {persist: yes}}")) == [
            "7:52: expected true or false for 'persist' in httpdns.sdk.cache of domain map 'm', got 'yes'",
        ])
    }

    @Test("an sdk key written directly in httpdns is told to move under sdk")
    func misplacedSDKKey() throws {
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios}", extra: ["expired: true"])) == [
            "8:7: unknown key 'expired' in httpdns of domain map 'm'; 'expired' is an sdk key: move it under 'sdk:' (line 7)",
        ])
        #expect(try errors(Self.plan(sdk: nil, extra: ["rank: {port: 443}"])) == [
            "7:7: unknown key 'rank' in httpdns of domain map 'm'; 'rank' is an sdk key: move it under a new 'sdk:' in the httpdns mapping",
        ])
    }

    @Test("retain: sdk needs the map's sdk; a word that is neither a duration nor sdk is refused with a suggestion")
    func retainRefusals() throws {
        #expect(try errors(Self.plan(sdk: nil, extra: ["retain: sdk"])) == [
            "7:15: 'retain: sdk' in httpdns of domain map 'm' takes its window from the map's 'sdk:', which it does not have; "
                + "add e.g. sdk: {profile: alibaba-android}, or give a duration such as 24h",
        ])
        #expect(try errors(Self.plan(sdk: "{profile: alibaba-ios}", extra: ["retain: sdkk"])) == [
            "8:15: expected a duration such as '24h' or 'sdk' for 'retain' in httpdns of domain map 'm', got 'sdkk'; did you mean 'sdk'?",
        ])
        #expect(try errors(Self.plan(sdk: nil, extra: ["retain: 31d"])) == [
            "7:15: expected a duration above 0 and at most 30 days (720h) for 'retain' in httpdns of domain map 'm', got '31d'",
        ])
    }
}
