import Foundation
import Testing

@testable import RunnerAppTrust

/// ATS and NSPinnedDomains on Fixtures/Info.plist, in XML and in binary form.
@Suite("iOS ATS and NSPinnedDomains policies")
struct IOSTrustSettingsPolicyTests {
    static let path = "app/Info.plist"

    static func settings() throws -> IOSTrustSettings {
        try IOSTrustSettings.parse(try TestPins.fixture("Info.plist"), path: path)
    }

    /// The fixture converted to a binary plist by PropertyListSerialization.
    static func binarySettings() throws -> IOSTrustSettings {
        let decoded = try PropertyListSerialization.propertyList(from: try TestPins.fixture("Info.plist"), options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: decoded, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist".utf8)))
        return try IOSTrustSettings.parse(binary, path: "app/Info.bin.plist")
    }

    static let ats12 = (tls: "1.2", forwardSecrecy: true)

    @Test("a subdomain of an NSIncludesSubdomains exception: ATS's defaults, the parent's CA pin")
    func subdomainException() throws {
        let policy = try Self.settings().policy(for: "www.example.com", iOSVersion: 17)
        #expect(policy == AppTrustPolicy(
            platform: .ios, source: AppTrustSource(file: Self.path, line: 13), cleartextPermitted: false, anchors: ["system"],
            pins: [TestPins.a], caPins: [TestPins.a], pinsEnforced: true, whyNotEnforced: nil, tlsMinimum: "1.2",
            forwardSecrecy: true, minimumRSAKeyBits: 2048, minimumECKeyBits: 256, minimumSignatureHash: "SHA-256"))
    }

    @Test("NSExceptionDomains covers any depth, NSPinnedDomains one label")
    func depth() throws {
        let policy = try Self.settings().policy(for: "a.b.example.com", iOSVersion: 17)
        #expect(policy.source?.line == 13)
        #expect(policy.tlsMinimum == "1.2")
        #expect(policy.pins.isEmpty)
        #expect(policy.whyNotEnforced == .noPins)
    }

    @Test("an exact pinned entry and its parent's combine: leaf pins and CA pins")
    func exactAndParentCombine() throws {
        let policy = try Self.settings().policy(for: "API.example.com.", iOSVersion: 17)
        #expect(policy.leafPins == [TestPins.b])
        #expect(policy.caPins == [TestPins.a])
        #expect(policy.pins == [TestPins.b, TestPins.a])
        let leafB = AppTrustChainCertificate(spkiSHA256: TestPins.b, isLeaf: true)
        let caA = AppTrustChainCertificate(spkiSHA256: TestPins.a, isLeaf: false)
        let leafA = AppTrustChainCertificate(spkiSHA256: TestPins.a, isLeaf: true)
        let caB = AppTrustChainCertificate(spkiSHA256: TestPins.b, isLeaf: false)
        #expect(policy.check(chain: [leafB, caA]) == .matched(pin: TestPins.b))
        // Each kind must match in its own place: A as the leaf, B as the CA do not.
        #expect(policy.check(chain: [leafA, caB]) == .notMatched)
        #expect(policy.check(chain: [leafB]) == .notMatched)
    }

    @Test("an exception's own values")
    func legacyException() throws {
        let policy = try Self.settings().policy(for: "legacy.example.com", iOSVersion: 16)
        #expect(policy.source?.line == 18)
        #expect(policy.cleartextPermitted)
        #expect(policy.tlsMinimum == "1.0")
        #expect(policy.forwardSecrecy == false)
        #expect(policy.caPins == [TestPins.a])
    }

    @Test("NSAllowsArbitraryLoads covers a name no exception names")
    func arbitraryLoads() throws {
        let policy = try Self.settings().policy(for: "other.example", iOSVersion: 17)
        #expect(policy == AppTrustPolicy(
            platform: .ios, source: nil, cleartextPermitted: true, anchors: ["system"], pins: [], pinsEnforced: false,
            whyNotEnforced: .noPins))
    }

    @Test("IP hosts: no ATS below iOS 17; from 17 the exact address, else the longest CIDR; loopback and link-local exempt",
          arguments: [
              ("203.0.113.7", 16, true, nil, nil as Int?),
              ("203.0.113.7", 17, true, "1.2", 32),
              ("203.0.113.9", 17, false, "1.3", 27),
              ("[2001:db8::5]", 17, false, "1.1", 37),
              ("2001:db8::5", 16, true, nil, nil),
              ("127.0.0.1", 17, true, nil, nil),
              ("169.254.10.1", 17, true, nil, nil),
              ("fe80::1", 17, true, nil, nil),
              ("::1", 17, true, nil, nil),
          ] as [(String, Int, Bool, String?, Int?)])
    func addresses(host: String, iOSVersion: Int, cleartext: Bool, tls: String?, line: Int?) throws {
        let policy = try Self.settings().policy(for: host, iOSVersion: iOSVersion)
        #expect(policy.cleartextPermitted == cleartext)
        #expect(policy.tlsMinimum == tls)
        #expect(policy.source?.line == line)
    }

    @Test("a name exception never covers an address, nor an address exception a name")
    func namesAndAddressesApart() throws {
        let plist = InfoPlistText.wrap("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSExceptionDomains</key>
                <dict>
                    <key>203.0.113.7</key>
                    <dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
                    <key>example.com</key>
                    <dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSIncludesSubdomains</key><true/></dict>
                </dict>
            </dict>
            """)
        let settings = try IOSTrustSettings.parse(Data(plist.utf8), path: "Info.plist")
        // The default requirements for an address nothing covers (no NSAllowsArbitraryLoads here).
        let address = settings.policy(for: "198.51.100.1", iOSVersion: 17)
        #expect(!address.cleartextPermitted)
        #expect(address.tlsMinimum == "1.2")
        #expect(address.source == nil)
        #expect(settings.policy(for: "203.0.113.7", iOSVersion: 17).cleartextPermitted)
        #expect(!settings.policy(for: "7.113.0.203.in-addr.arpa", iOSVersion: 17).cleartextPermitted)
        #expect(settings.policy(for: "api.example.com", iOSVersion: 17).cleartextPermitted)
    }

    @Test("NSAllowsArbitraryLoads is ignored beside NSAllowsLocalNetworking, which leaves local names alone")
    func localNetworking() throws {
        let plist = InfoPlistText.wrap("""
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsArbitraryLoads</key>
                <true/>
                <key>NSAllowsLocalNetworking</key>
                <true/>
            </dict>
            """)
        let settings = try IOSTrustSettings.parse(Data(plist.utf8), path: "Info.plist")
        #expect(!settings.allowsArbitraryLoads)
        #expect(!settings.policy(for: "api.example.com", iOSVersion: 17).cleartextPermitted)
        #expect(settings.policy(for: "printer", iOSVersion: 17).cleartextPermitted)
        #expect(settings.policy(for: "printer.local", iOSVersion: 17).cleartextPermitted)
    }

    @Test("a non-boolean NSAllowsArbitraryLoads counts as unset; so does one beside …InWebContent, whatever its value")
    func arbitraryLoadsIgnored() throws {
        let notBoolean = InfoPlistText.wrap("<key>NSAppTransportSecurity</key>\n<dict><key>NSAllowsArbitraryLoads</key><string>YES</string></dict>")
        #expect(try !IOSTrustSettings.parse(Data(notBoolean.utf8), path: "Info.plist").allowsArbitraryLoads)
        let web = InfoPlistText.wrap(
            "<key>NSAppTransportSecurity</key>\n<dict><key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/></dict>")
        #expect(try !IOSTrustSettings.parse(Data(web.utf8), path: "Info.plist").allowsArbitraryLoads)
    }

    @Test("NSPinnedDomains applies from iOS 14")
    func pinnedDomainsFrom14() throws {
        #expect(try Self.settings().policy(for: "api.example.com", iOSVersion: 13).pins.isEmpty)
        #expect(try Self.settings().policy(for: "api.example.com", iOSVersion: 14).pins == [TestPins.b, TestPins.a])
    }

    @Test("the binary form gives the same policies as the XML one", arguments: [
        "www.example.com", "api.example.com", "legacy.example.com", "other.example", "203.0.113.7", "203.0.113.9", "2001:db8::5",
        "pay.example.com",
    ])
    func binarySameAsXML(host: String) throws {
        let xml = try Self.settings()
        let binary = try Self.binarySettings()
        for version in [16, 17] {
            var fromXML = xml.policy(for: host, iOSVersion: version)
            var fromBinary = binary.policy(for: host, iOSVersion: version)
            // A binary plist has no lines: its source is line 1 of its own file.
            #expect((fromXML.source == nil) == (fromBinary.source == nil))
            #expect(fromBinary.source.map { $0.line == 1 && $0.file == "app/Info.bin.plist" } ?? true)
            fromXML.source = nil
            fromBinary.source = nil
            #expect(fromXML == fromBinary)
            var trustKitXML = xml.trustKitPolicy(for: host, iOSVersion: version, now: TestPins.instant("2026-11-27T00:00:00Z"))
            var trustKitBinary = binary.trustKitPolicy(for: host, iOSVersion: version, now: TestPins.instant("2026-11-27T00:00:00Z"))
            trustKitXML?.source = nil
            trustKitBinary?.source = nil
            #expect(trustKitXML == trustKitBinary)
        }
    }
}
