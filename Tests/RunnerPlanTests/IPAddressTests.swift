import Testing

@testable import RunnerPlan

/// `IPAddress(_:)`: what is an address literal (every lookup asks, for each result's host).
@Suite("IP address literals")
struct IPAddressTests {
    @Test("IPv4, IPv6 and bracketed IPv6 are addresses, in their canonical text")
    func literals() throws {
        let v4 = try #require(IPAddress("203.0.113.7"))
        #expect(v4.family == .v4 && v4.text == "203.0.113.7")
        let v6 = try #require(IPAddress("2001:DB8:0:0::1"))
        #expect(v6.family == .v6 && v6.text == "2001:db8::1")
        #expect(IPAddress("[::1]")?.text == "::1")
    }

    @Test("names, zone indices, stray brackets and empty text are not")
    func notLiterals() {
        for text in ["api.lab.test", "cafe", "deadbeef.example", "fe80::1%eth0", "[::1", "::1]", "[[::1]]", "[]", "", "1.2.3", "1.2.3.256"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }
}
