import Foundation
import Testing

@testable import RunnerAppTrust

/// Hostile XML gets an error with its file and line, at once: no entity expansion bomb, no
/// external entity read.
@Suite("App trust hostile files")
struct AppTrustHostileFileTests {
    @Test("a billion laughs is libxml2's entity loop error, found at once")
    func billionLaughs() {
        var declarations = "<!ENTITY lol \"lollollollollollollollollollol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        let xml = "<!DOCTYPE network-security-config [\(declarations)]>\n<network-security-config>\n  <domain-config><domain>&lol9;</domain></domain-config>\n</network-security-config>\n"
        let started = Date()
        do {
            _ = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "nsc.xml:3:32: error: malformed XML: an entity reference loop (or an expansion past libxml2's limit)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("an external entity is not read: its reference stays empty")
    func externalEntity() {
        let xml = "<!DOCTYPE network-security-config [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>\n<network-security-config>\n  <domain-config><domain>&x;</domain></domain-config>\n</network-security-config>\n"
        do {
            _ = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "nsc.xml:3:18: error: domain name missing")
        }
    }
}
