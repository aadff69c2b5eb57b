import Foundation
import Testing

@testable import RunnerAppTrust

/// What iOS or TrustKit cannot use, located at the key in an XML Info.plist (line 1 and the
/// key path in a binary one).
@Suite("Info.plist errors")
struct IOSTrustSettingsErrorTests {
    struct ErrorCase: CustomTestStringConvertible, Sendable {
        let name: String
        let body: String
        let expected: String
        var testDescription: String { name }

        init(_ name: String, _ body: String, _ expected: String) {
            self.name = name
            self.body = body
            self.expected = expected
        }
    }

    static func trustKit(_ domain: String, _ entry: String) -> String {
        "<key>TSKConfiguration</key>\n<dict>\n  <key>TSKPinnedDomains</key>\n  <dict>\n    <key>\(domain)</key>\n    <dict>\(entry)</dict>\n  </dict>\n</dict>"
    }

    static let cases: [ErrorCase] = [
        ErrorCase(
            "a minimum TLS version ATS does not know",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSExceptionDomains</key>\n  <dict>\n    <key>api.example.com</key>\n    <dict>\n      <key>NSExceptionMinimumTLSVersion</key>\n      <string>TLSv1.4</string>\n    </dict>\n  </dict>\n</dict>",
            "Info.plist:11:7: error: NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSExceptionMinimumTLSVersion: \"TLSv1.4\" is not one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3"),
        ErrorCase(
            "a boolean written as a string",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSExceptionDomains</key>\n  <dict>\n    <key>api.example.com</key>\n    <dict>\n      <key>NSIncludesSubdomains</key>\n      <string>YES</string>\n    </dict>\n  </dict>\n</dict>",
            "Info.plist:11:7: error: NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSIncludesSubdomains: must be a boolean (<true/> or <false/>), found \"YES\""),
        ErrorCase(
            "NSExceptionDomains that is not a dictionary",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSExceptionDomains</key>\n  <array/>\n</dict>",
            "Info.plist:7:3: error: NSAppTransportSecurity.NSExceptionDomains: must be a dictionary, found an array"),
        ErrorCase(
            "a pinned identity that is not base64",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSPinnedDomains</key>\n  <dict>\n    <key>api.example.com</key>\n    <dict>\n      <key>NSPinnedLeafIdentities</key>\n      <array>\n        <dict><key>SPKI-SHA256-BASE64</key><string>not*base64</string></dict>\n      </array>\n    </dict>\n  </dict>\n</dict>",
            "Info.plist:13:15: error: NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedLeafIdentities.0.SPKI-SHA256-BASE64: \"not*base64\" is not base64"),
        ErrorCase(
            "a pinned identity without its key",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSPinnedDomains</key>\n  <dict>\n    <key>api.example.com</key>\n    <dict>\n      <key>NSPinnedCAIdentities</key>\n      <array>\n        <dict><key>SPKI-SHA1-BASE64</key><string>x</string></dict>\n      </array>\n    </dict>\n  </dict>\n</dict>",
            "Info.plist:13:9: error: NSAppTransportSecurity.NSPinnedDomains.api.example.com.NSPinnedCAIdentities.0: an identity needs SPKI-SHA256-BASE64, a string"),
        ErrorCase(
            "TrustKit: one pin while enforcing",
            trustKit("example.com", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string></array>"),
            "Info.plist:10:11: error: TSKConfiguration.TSKPinnedDomains.example.com.TSKPublicKeyHashes: TrustKit needs at least 2 distinct pins when TSKEnforcePinning is YES (a backup pin), found 1"),
        ErrorCase(
            "TrustKit: the same pin twice",
            trustKit("example.com", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string><string>\(TestPins.a)</string></array>"),
            "Info.plist:10:11: error: TSKConfiguration.TSKPinnedDomains.example.com.TSKPublicKeyHashes: TrustKit needs at least 2 distinct pins when TSKEnforcePinning is YES (a backup pin), found 1"),
        ErrorCase(
            "TrustKit: no pin when not enforcing",
            trustKit("example.com", "<key>TSKEnforcePinning</key><false/><key>TSKPublicKeyHashes</key><array/>"),
            "Info.plist:10:47: error: TSKConfiguration.TSKPinnedDomains.example.com.TSKPublicKeyHashes: TrustKit needs at least 1 distinct pin, found 0"),
        ErrorCase(
            "TrustKit: a pin of 31 bytes",
            trustKit("example.com", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string><string>\(TestPins.short)</string></array>"),
            "Info.plist:10:108: error: TSKConfiguration.TSKPinnedDomains.example.com.TSKPublicKeyHashes.1: \"\(TestPins.short)\" decodes to 31 bytes, a SHA-256 digest is 32"),
        ErrorCase(
            "TrustKit: an IP address",
            trustKit("203.0.113.7", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string><string>\(TestPins.b)</string></array>"),
            "Info.plist:9:5: error: TSKConfiguration.TSKPinnedDomains.203.0.113.7: TrustKit cannot pin an IP address: 203.0.113.7 is not a domain"),
        ErrorCase(
            "TrustKit: localhost",
            trustKit("localhost", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string><string>\(TestPins.b)</string></array>"),
            "Info.plist:9:5: error: TSKConfiguration.TSKPinnedDomains.localhost: TrustKit cannot pin localhost"),
        ErrorCase(
            "TrustKit: a public suffix",
            trustKit("com.cn", "<key>TSKPublicKeyHashes</key><array><string>\(TestPins.a)</string><string>\(TestPins.b)</string></array>"),
            "Info.plist:9:5: error: TSKConfiguration.TSKPinnedDomains.com.cn: TrustKit cannot pin com.cn: it is a public suffix"),
        ErrorCase(
            "TrustKit: no TSKPublicKeyHashes",
            trustKit("example.com", "<key>TSKIncludeSubdomains</key><true/>"),
            "Info.plist:9:5: error: TSKConfiguration.TSKPinnedDomains.example.com: TSKPublicKeyHashes must be an array of base64 SHA-256 SPKI hashes"),
        ErrorCase(
            "TrustKit: no TSKPinnedDomains",
            "<key>TSKConfiguration</key>\n<dict>\n  <key>TSKSwizzleNetworkDelegates</key><false/>\n</dict>",
            "Info.plist:5:1: error: TSKConfiguration: TrustKit needs TSKPinnedDomains, a dictionary of at least one domain"),
        ErrorCase(
            "TrustKit: empty TSKPinnedDomains",
            "<key>TSKConfiguration</key>\n<dict>\n  <key>TSKPinnedDomains</key><dict/>\n</dict>",
            "Info.plist:7:3: error: TSKConfiguration.TSKPinnedDomains: TrustKit needs at least one pinned domain"),
        ErrorCase(
            "malformed XML",
            "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSAllowsArbitraryLoads</key><true/>\n</array>",
            "Info.plist:8:9: error: malformed XML: opening and ending tag mismatch"),
    ]

    @Test("refused at the key", arguments: cases)
    func refused(_ errorCase: ErrorCase) {
        do {
            _ = try IOSTrustSettings.parse(Data(InfoPlistText.wrap(errorCase.body).utf8), path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == errorCase.expected)
        }
    }

    @Test("of two wrong entries, the first in the file is the error")
    func fileOrder() {
        let body = "<key>NSAppTransportSecurity</key>\n<dict>\n  <key>NSExceptionDomains</key>\n  <dict>\n    <key>z.example</key>\n    <dict><key>NSExceptionMinimumTLSVersion</key><string>1.2</string></dict>\n    <key>a.example</key>\n    <dict><key>NSExceptionMinimumTLSVersion</key><string>SSLv3</string></dict>\n  </dict>\n</dict>"
        do {
            _ = try IOSTrustSettings.parse(Data(InfoPlistText.wrap(body).utf8), path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:10:11: error: NSAppTransportSecurity.NSExceptionDomains.z.example.NSExceptionMinimumTLSVersion: \"1.2\" is not one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3")
        }
    }

    @Test("a binary plist's error is at line 1 and names the key path")
    func binary() throws {
        let body = IOSTrustSettingsErrorTests.cases[0].body
        let decoded = try PropertyListSerialization.propertyList(from: Data(InfoPlistText.wrap(body).utf8), options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: decoded, format: .binary, options: 0)
        do {
            _ = try IOSTrustSettings.parse(binary, path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:1:1: error: NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSExceptionMinimumTLSVersion: \"TLSv1.4\" is not one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3")
            #expect(error.sourceLine == nil)
        }
    }

    @Test("bytes that are no property list, and a property list that is no dictionary")
    func notAPlist() {
        for (bytes, expected) in [
            (Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF, 0x00]), "Info.plist:1:1: error: not a property list Foundation can read (binary)"),
            (Data("<plist version=\"1.0\">\n<dict><key>a</key></dict>\n</plist>".utf8), "Info.plist:1:1: error: not a property list Foundation can read (XML)"),
            (Data("<plist version=\"1.0\">\n<array/>\n</plist>".utf8), "Info.plist:1:1: error: the top of an Info.plist must be a dictionary"),
        ] {
            do {
                _ = try IOSTrustSettings.parse(bytes, path: "Info.plist")
                Issue.record("parsed without an error")
            } catch {
                #expect(error.description == expected)
            }
        }
    }

    @Test("the rendered error shows the key's line with a caret")
    func rendered() {
        do {
            _ = try IOSTrustSettings.parse(Data(InfoPlistText.wrap(Self.cases[0].body).utf8), path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.rendered == """
                \(Self.cases[0].expected)
                          <key>NSExceptionMinimumTLSVersion</key>
                          ^
                """)
        }
    }
}
