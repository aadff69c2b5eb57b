import Foundation
import Testing

@testable import RunnerAppTrust

/// TrustKit's `TSKConfiguration` on Fixtures/Info.plist.
@Suite("TrustKit policies")
struct TrustKitPolicyTests {
    static let now = TestPins.instant("2026-11-27T12:00:00Z")

    static func settings() throws -> IOSTrustSettings {
        try IOSTrustSettings.parse(try TestPins.fixture("Info.plist"), path: "Info.plist")
    }

    @Test("the longest TSKIncludeSubdomains parent; ATS's values kept")
    func includeSubdomains() throws {
        let policy = try #require(try Self.settings().trustKitPolicy(for: "www.example.com", iOSVersion: 17, now: Self.now))
        #expect(policy.source == AppTrustSource(file: "Info.plist", line: 75))
        #expect(policy.pins == [TestPins.c, TestPins.d])
        #expect(policy.pinsEnforced)
        #expect(policy.caPins.isEmpty)
        #expect(policy.tlsMinimum == "1.2")
        #expect(policy.check(chain: [
            AppTrustChainCertificate(spkiSHA256: TestPins.e, isLeaf: true), AppTrustChainCertificate(spkiSHA256: TestPins.d, isLeaf: false),
        ]) == .matched(pin: TestPins.d))
    }

    @Test("exact match: TSKEnforcePinning NO reports only; past TSKExpirationDate (UTC) it is expired")
    func exactReportOnlyAndExpired() throws {
        let settings = try Self.settings()
        let policy = try #require(settings.trustKitPolicy(for: "pay.example.com", iOSVersion: 17, now: Self.now))
        #expect(policy.source?.line == 85)
        #expect(policy.pins == [TestPins.e])
        #expect(policy.pinsExpire == "2030-01-01")
        #expect(policy.whyNotEnforced == .reportOnly)
        let later = try #require(settings.trustKitPolicy(for: "pay.example.com", iOSVersion: 17, now: TestPins.instant("2030-01-01T00:00:00Z")))
        #expect(later.whyNotEnforced == .expired)
    }

    @Test("an expiration TrustKit cannot read is no expiry")
    func unreadableExpiration() throws {
        let policy = try #require(try Self.settings().trustKitPolicy(for: "old.example.com", iOSVersion: 17, now: Self.now))
        #expect(policy.pinsExpire == nil)
        #expect(policy.pinsEnforced)
    }

    @Test("matching is case-sensitive; an IP matches no domain; no TSKConfiguration, no policy")
    func noMatch() throws {
        let settings = try Self.settings()
        #expect(try #require(settings.trustKitPolicy(for: "EXAMPLE.com", iOSVersion: 17, now: Self.now)).whyNotEnforced == .noPins)
        #expect(try #require(settings.trustKitPolicy(for: "203.0.113.7", iOSVersion: 17, now: Self.now)).pins.isEmpty)
        let bare = try IOSTrustSettings.parse(Data(InfoPlistText.wrap("<key>CFBundleName</key><string>x</string>").utf8), path: "Info.plist")
        #expect(bare.trustKitPolicy(for: "www.example.com", iOSVersion: 17, now: Self.now) == nil)
    }
}
