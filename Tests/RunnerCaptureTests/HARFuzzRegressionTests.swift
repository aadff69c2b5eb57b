import Foundation
import Testing
@testable import RunnerCapture

/// Inputs the `har` fuzz target failed on (fuzz/regressions/har/), as tests of what they broke.
@Suite struct HARFuzzRegressionTests {
    /// `unclosed-ipv6-bracket`: an address with an opening bracket and no closing one kept it.
    @Test(arguments: [
        ("[2620:0:860:ed1a::12345", "2620:0:860:ed1a::12345"), ("[[::1]]", "::1"), ("[::1]:443", "::1"), (" [10.0.0.1] ", "10.0.0.1"),
    ])
    func bracketsNeverStayOnTheAddress(written: String, address: String) throws {
        let entry = HARFixture.entry(extra: #""serverIPAddress": "\#(written)""#)
        let read = try #require(try HARFixture.read(HARFixture.log([entry])).entries.first)
        #expect(read.serverIPAddress?.address == address)
    }

    @Test(arguments: ["[", "[]", "]", " "])
    func onlyBracketsIsNoAddress(written: String) throws {
        let entry = HARFixture.entry(extra: #""serverIPAddress": "\#(written)""#)
        #expect(try HARFixture.read(HARFixture.log([entry])).entries.first?.serverIPAddress == nil)
    }
}
