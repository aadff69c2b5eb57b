import Foundation
import Testing

@testable import RunnerAppTrust

/// Matching, inheritance and defaults of a Network Security Config, on
/// Fixtures/network_security_config.xml.
@Suite("Android Network Security Config policies")
struct AndroidNetworkSecurityConfigPolicyTests {
    static let path = "app/network_security_config.xml"
    static let now = TestPins.instant("2026-11-27T12:00:00Z")

    static func config(debuggable: Bool = false) throws -> AndroidNetworkSecurityConfig {
        try AndroidNetworkSecurityConfig.parse(
            try TestPins.fixture("network_security_config.xml"), path: path, debuggable: debuggable,
            rawDirectory: TestPins.fixtures.appendingPathComponent("raw").path)
    }

    @Test("a subdomain takes the includeSubdomains domain-config: its pins, base-config's cleartext and anchors")
    func subdomain() throws {
        let policy = try Self.config().policy(for: "www.example.com", targetSDK: 34, now: Self.now)
        #expect(policy == AppTrustPolicy(
            platform: .android, source: AppTrustSource(file: Self.path, line: 8), cleartextPermitted: false, anchors: ["system"],
            pins: [TestPins.a, TestPins.b], pinsExpire: "2030-01-01", pinsEnforced: true, whyNotEnforced: nil))
    }

    @Test("the host is lower-cased and one trailing dot dropped; the domain itself matches")
    func normalized() throws {
        let config = try Self.config()
        #expect(config.policy(for: "WWW.Example.com.", targetSDK: 34, now: Self.now).source?.line == 8)
        #expect(config.policy(for: "example.com", targetSDK: 34, now: Self.now).source?.line == 8)
        // Not on a dot boundary: base-config.
        #expect(config.policy(for: "badexample.com", targetSDK: 34, now: Self.now).source?.line == 3)
    }

    @Test("a nested domain-config sets cleartext and inherits its parent's pins")
    func nestedInheritsPins() throws {
        let policy = try Self.config().policy(for: "legacy.example.com", targetSDK: 34, now: Self.now)
        #expect(policy.source?.line == 14)
        #expect(policy.cleartextPermitted)
        #expect(policy.pins == [TestPins.a, TestPins.b])
        #expect(policy.pinsEnforced)
        // legacy.example.com has no includeSubdomains: its subdomain is the parent's.
        #expect(try Self.config().policy(for: "a.legacy.example.com", targetSDK: 34, now: Self.now).source?.line == 8)
    }

    @Test("the longest includeSubdomains domain wins; an anchor with overridePins skips the pins")
    func overridePins() throws {
        let policy = try Self.config().policy(for: "img.static.example.com", targetSDK: 34, now: Self.now)
        #expect(policy.source?.line == 17)
        #expect(policy.anchors == ["@raw/extra_ca"])
        #expect(policy.anchorsOverridingPins == ["@raw/extra_ca"])
        #expect(policy.pins == [TestPins.a, TestPins.b])
        #expect(!policy.pinsEnforced)
        #expect(policy.whyNotEnforced == .overridePins)
    }

    @Test("with one overriding anchor among others the pins apply, except to a chain that anchor verifies")
    func someAnchorsOverride() throws {
        let policy = try Self.config().policy(for: "a.mixed.example.org", targetSDK: 34, now: Self.now)
        #expect(policy.anchors == ["system", "user"])
        #expect(policy.anchorsOverridingPins == ["user"])
        #expect(policy.pinsEnforced)
        let chain = [AppTrustChainCertificate(spkiSHA256: TestPins.e, isLeaf: true)]
        #expect(policy.check(chain: chain) == .notMatched)
        #expect(policy.check(chain: chain, anchor: "user") == .notChecked(.overridePins))
    }

    @Test("a pin-set is expired from midnight UTC starting its expiration day")
    func expiration() throws {
        let config = try Self.config()
        let before = config.policy(for: "api.example.com", targetSDK: 34, now: TestPins.instant("2029-12-31T23:59:59Z"))
        #expect(before.pinsEnforced)
        let at = config.policy(for: "api.example.com", targetSDK: 34, now: TestPins.instant("2030-01-01T00:00:00Z"))
        #expect(!at.pinsEnforced)
        #expect(at.whyNotEnforced == .expired)
        #expect(at.pins == [TestPins.a, TestPins.b])
        #expect(at.pinsExpire == "2030-01-01")
        let old = config.policy(for: "old.example.net", targetSDK: 34, now: Self.now)
        #expect(old.whyNotEnforced == .expired)
        #expect(old.check(chain: [AppTrustChainCertificate(spkiSHA256: TestPins.e, isLeaf: true)]) == .notChecked(.expired))
    }

    @Test("a host no domain-config names takes base-config; an IP written as a domain matches that IP")
    func baseConfigAndAddress() throws {
        let config = try Self.config()
        let other = config.policy(for: "other.example", targetSDK: 34, now: Self.now)
        #expect(other == AppTrustPolicy(
            platform: .android, source: AppTrustSource(file: Self.path, line: 3), cleartextPermitted: false, anchors: ["system"],
            pins: [], pinsEnforced: false, whyNotEnforced: .noPins))
        let address = config.policy(for: "203.0.113.7", targetSDK: 34, now: Self.now)
        #expect(address.source?.line == 40)
        #expect(address.cleartextPermitted)
        // Elements inside an unknown element are skipped.
        #expect(config.policy(for: "skipped.example", targetSDK: 34, now: Self.now).source?.line == 3)
    }

    @Test("debug-overrides: read only when debuggable, its anchors added to every config with overridePins")
    func debugOverrides() throws {
        let release = try Self.config(debuggable: false)
        #expect(release.debugAnchors == nil)
        let debug = try Self.config(debuggable: true)
        let other = debug.policy(for: "other.example", targetSDK: 34, now: Self.now)
        #expect(other.anchors == ["system", "@raw/debug_ca"])
        #expect(other.anchorsOverridingPins == ["@raw/debug_ca"])
        let pinned = debug.policy(for: "www.example.com", targetSDK: 34, now: Self.now)
        #expect(pinned.anchors == ["system", "@raw/debug_ca"])
        #expect(pinned.pinsEnforced)
        let chain = [AppTrustChainCertificate(spkiSHA256: TestPins.e, isLeaf: true)]
        #expect(pinned.check(chain: chain, anchor: "@raw/debug_ca") == .notChecked(.overridePins))
    }

    @Test("without base-config, values fall to the platform defaults by targetSdkVersion")
    func defaultsWithoutBaseConfig() throws {
        let config = try AndroidNetworkSecurityConfig.parse(
            try TestPins.fixture("no_base_config.xml"), path: "nsc.xml", debuggable: false, rawDirectory: nil)
        let pinned = config.policy(for: "api.example.com", targetSDK: 27, now: Self.now)
        #expect(pinned.cleartextPermitted)
        #expect(pinned.anchors == ["system"])
        #expect(pinned.pins == [TestPins.a])
        let other = config.policy(for: "www.example.com", targetSDK: 28, now: Self.now)
        #expect(other.source == nil)
        #expect(!other.cleartextPermitted)
    }

    @Test("the platform default: cleartext below 28, user CAs at 23 or below, system CAs, no pins", arguments: [
        (22, true, ["system", "user"]), (23, true, ["system", "user"]), (24, true, ["system"]), (27, true, ["system"]),
        (28, false, ["system"]), (34, false, ["system"]),
    ])
    func platformDefault(targetSDK: Int, cleartext: Bool, anchors: [String]) {
        let policy = AndroidNetworkSecurityConfig.platformDefault.policy(for: "api.example.com", targetSDK: targetSDK, now: Self.now)
        #expect(policy == AppTrustPolicy(
            platform: .android, source: nil, cleartextPermitted: cleartext, anchors: anchors, pins: [], pinsEnforced: false,
            whyNotEnforced: .noPins))
    }
}
