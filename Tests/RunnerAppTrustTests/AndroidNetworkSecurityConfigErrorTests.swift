import Foundation
import Testing

@testable import RunnerAppTrust

/// Every Network Security Config Android refuses, as an error at the element's line and column.
@Suite("Android Network Security Config errors")
struct AndroidNetworkSecurityConfigErrorTests {
    /// A file, whether the app is debuggable, and the error's one-line form.
    struct ErrorCase: CustomTestStringConvertible, Sendable {
        let name: String
        let xml: String
        let debuggable: Bool
        let expected: String
        var testDescription: String { name }

        init(_ name: String, debuggable: Bool = false, _ xml: String, _ expected: String) {
            self.name = name
            self.xml = xml
            self.debuggable = debuggable
            self.expected = expected
        }
    }

    static let raw = TestPins.fixtures.appendingPathComponent("raw").path

    static let cases: [ErrorCase] = [
        ErrorCase(
            "two base-configs",
            "<network-security-config>\n    <base-config/>\n    <base-config/>\n</network-security-config>",
            "nsc.xml:3:5: error: only one base-config allowed"),
        ErrorCase(
            "two debug-overrides, even when not debuggable",
            "<network-security-config>\n    <debug-overrides/>\n    <debug-overrides/>\n</network-security-config>",
            "nsc.xml:3:5: error: only one debug-overrides allowed"),
        ErrorCase(
            "a domain in base-config",
            "<network-security-config>\n    <base-config>\n        <domain>a.example</domain>\n    </base-config>\n</network-security-config>",
            "nsc.xml:3:9: error: domain element not allowed in base-config"),
        ErrorCase(
            "a pin-set in base-config",
            "<network-security-config>\n    <base-config>\n        <pin-set/>\n    </base-config>\n</network-security-config>",
            "nsc.xml:3:9: error: pin-set element not allowed in base-config"),
        ErrorCase(
            "a domain-config in base-config",
            "<network-security-config>\n    <base-config>\n        <domain-config><domain>a.example</domain></domain-config>\n    </base-config>\n</network-security-config>",
            "nsc.xml:3:9: error: nested domain-config not allowed in base-config"),
        ErrorCase(
            "two trust-anchors in one config",
            "<network-security-config>\n    <base-config>\n        <trust-anchors/>\n        <trust-anchors/>\n    </base-config>\n</network-security-config>",
            "nsc.xml:4:9: error: multiple trust-anchors elements not allowed"),
        ErrorCase(
            "two pin-sets in one config",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set/>\n    <pin-set/>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:5: error: multiple pin-set elements not allowed"),
        ErrorCase(
            "a domain-config without a domain",
            "<network-security-config>\n    <domain-config cleartextTrafficPermitted=\"true\">\n    </domain-config>\n</network-security-config>",
            "nsc.xml:2:5: error: no domain elements in domain-config"),
        ErrorCase(
            "an empty domain",
            "<network-security-config>\n  <domain-config>\n    <domain>   </domain>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:3:5: error: domain name missing"),
        ErrorCase(
            "a domain without text",
            "<network-security-config>\n  <domain-config>\n    <domain includeSubdomains=\"true\"/>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:3:5: error: domain name missing"),
        ErrorCase(
            "a domain holding an element",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example<b/></domain>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:3:5: error: domain contains additional elements"),
        ErrorCase(
            "the same domain twice, with another includeSubdomains and case",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n  </domain-config>\n  <domain-config>\n    <domain includeSubdomains=\"true\">A.Example</domain>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:6:5: error: duplicate domain name a.example (first at line 3)"),
        ErrorCase(
            "certificates without src",
            "<network-security-config>\n  <base-config>\n    <trust-anchors>\n      <certificates overridePins=\"true\"/>\n    </trust-anchors>\n  </base-config>\n</network-security-config>",
            "nsc.xml:4:7: error: certificates element missing src attribute"),
        ErrorCase(
            "certificates src that is not system, user or @raw",
            "<network-security-config>\n  <base-config>\n    <trust-anchors>\n      <certificates src=\"@drawable/ca\"/>\n    </trust-anchors>\n  </base-config>\n</network-security-config>",
            "nsc.xml:4:7: error: unknown certificates src \"@drawable/ca\": should be one of system|user|@raw/NAME"),
        ErrorCase(
            "certificates src @raw/ without a name",
            "<network-security-config>\n  <base-config>\n    <trust-anchors>\n      <certificates src=\"@raw/\"/>\n    </trust-anchors>\n  </base-config>\n</network-security-config>",
            "nsc.xml:4:7: error: unknown certificates src \"@raw/\": should be one of system|user|@raw/NAME"),
        ErrorCase(
            "a digest other than SHA-256",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set>\n      <pin digest=\"SHA-1\">U1NTU1NTU1NTU1NTU1NTU1NTU1M=</pin>\n    </pin-set>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:7: error: unsupported pin digest algorithm: \"SHA-1\" (only SHA-256)"),
        ErrorCase(
            "a pin without digest",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set>\n      <pin>\(TestPins.a)</pin>\n    </pin-set>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:7: error: unsupported pin digest algorithm: \"\" (only SHA-256)"),
        ErrorCase(
            "a pin without a value",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set>\n      <pin digest=\"SHA-256\"></pin>\n    </pin-set>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:7: error: missing pin digest"),
        ErrorCase(
            "a pin that is not base64",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set>\n      <pin digest=\"SHA-256\">not*base64</pin>\n    </pin-set>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:7: error: invalid pin digest \"not*base64\": not base64"),
        ErrorCase(
            "a pin of 31 bytes",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set>\n      <pin digest=\"SHA-256\">\(TestPins.short)</pin>\n    </pin-set>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:5:7: error: digest length 31 does not match expected length for SHA-256 of 32"),
        ErrorCase(
            "an expiration without its leading zero",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set expiration=\"2026-1-05\"/>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:4:5: error: invalid expiration date \"2026-1-05\": expected yyyy-MM-dd"),
        ErrorCase(
            "an expiration on a day that does not exist",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set expiration=\"2026-02-30\"/>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:4:5: error: invalid expiration date \"2026-02-30\": expected yyyy-MM-dd"),
        ErrorCase(
            "an expiration with a time",
            "<network-security-config>\n  <domain-config>\n    <domain>a.example</domain>\n    <pin-set expiration=\"2026-02-03T00:00\"/>\n  </domain-config>\n</network-security-config>",
            "nsc.xml:4:5: error: invalid expiration date \"2026-02-03T00:00\": expected yyyy-MM-dd"),
        ErrorCase(
            "a pin-set in debug-overrides when debuggable", debuggable: true,
            "<network-security-config>\n  <debug-overrides>\n    <pin-set/>\n  </debug-overrides>\n</network-security-config>",
            "nsc.xml:3:5: error: pin-set element not allowed in debug-overrides"),
        ErrorCase(
            "a domain in debug-overrides when debuggable", debuggable: true,
            "<network-security-config>\n  <debug-overrides>\n    <domain>a.example</domain>\n  </debug-overrides>\n</network-security-config>",
            "nsc.xml:3:5: error: domain element not allowed in debug-overrides"),
        ErrorCase(
            "another root element",
            "<?xml version=\"1.0\"?>\n<network-config>\n</network-config>",
            "nsc.xml:2:1: error: unexpected start tag: found network-config, expected network-security-config"),
        ErrorCase(
            "a tag left open",
            "<network-security-config>\n  <base-config>\n</network-security-config>",
            "nsc.xml:3:27: error: malformed XML: an element not closed, or content after the root element"),
        ErrorCase(
            "an attribute written twice",
            "<network-security-config>\n  <base-config cleartextTrafficPermitted=\"true\" cleartextTrafficPermitted=\"false\"/>\n</network-security-config>",
            "nsc.xml:2:82: error: malformed XML: an attribute written twice"),
        ErrorCase(
            "an undeclared entity",
            "<network-security-config>\n  <domain-config><domain>&host;</domain></domain-config>\n</network-security-config>",
            "nsc.xml:2:32: error: malformed XML: an entity that is not declared"),
        ErrorCase(
            "a document that ends inside its root",
            "<network-security-config>\n  <base-config/>\n",
            "nsc.xml:2:17: error: malformed XML: an element not closed, or content after the root element"),
        ErrorCase("an empty file", "", "nsc.xml:1:1: error: malformed XML: the document ends before its root element is closed"),
        ErrorCase(
            "a root element left open at the end",
            "<network-security-config>",
            "nsc.xml:1:26: error: malformed XML: an element not closed, or content after the root element"),
    ]

    @Test("refused at the element", arguments: cases)
    func refused(_ errorCase: ErrorCase) {
        do {
            _ = try AndroidNetworkSecurityConfig.parse(
                Data(errorCase.xml.utf8), path: "nsc.xml", debuggable: errorCase.debuggable, rawDirectory: Self.raw)
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == errorCase.expected)
        }
    }

    @Test("an @raw file missing from the raw folder; not checked without one")
    func missingRawFile() throws {
        let xml = "<network-security-config>\n  <base-config>\n    <trust-anchors>\n      <certificates src=\"@raw/absent_ca\"/>\n    </trust-anchors>\n  </base-config>\n</network-security-config>"
        do {
            _ = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: Self.raw)
            Issue.record("parsed")
        } catch {
            #expect(error.description == "nsc.xml:4:7: error: @raw/absent_ca is missing: no file absent_ca or absent_ca.* in \(Self.raw)")
        }
        let config = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
        #expect(config.baseConfig?.trustAnchors == [AndroidTrustAnchor(source: "@raw/absent_ca", overridePins: false)])
    }

    @Test("debug-overrides is not read when the app is not debuggable")
    func debugOverridesNotValidated() throws {
        let xml = "<network-security-config>\n  <debug-overrides>\n    <pin-set/>\n    <domain>x</domain>\n  </debug-overrides>\n</network-security-config>"
        let config = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
        #expect(config.debugAnchors == nil)
    }

    @Test("the rendered error shows the line and a caret under the element")
    func rendered() {
        let xml = "<network-security-config>\n    <base-config/>\n    <base-config/>\n</network-security-config>"
        do {
            _ = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
            Issue.record("parsed")
        } catch {
            #expect(error.rendered == "nsc.xml:3:5: error: only one base-config allowed\n        <base-config/>\n        ^")
        }
    }
}
