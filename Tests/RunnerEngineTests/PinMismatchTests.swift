import RunnerPlan
import RunnerTransport
import Testing

@testable import RunnerEngine
import RunnerVocabulary

/// The invariant "every transfer connects to exactly the IP the strategy chose", checked on
/// what libcurl reports as the connected address (`CURLINFO_PRIMARY_IP`): nothing on loopback
/// can make curl connect elsewhere than told, so the check is proved on values.
@Suite("The connected IP is the pinned one")
struct PinMismatchTests {
    static let tls = ConnectionTLS()

    static func wire(_ strategy: StrategyKind, _ url: String, pinned: String?) throws -> WirePlan {
        let url = try #require(PlanURL.parse(url))
        return StrategyRules.wirePlan(url: url, strategy: strategy, ip: pinned.flatMap(IPAddress.init), tls: tls, http: .auto)
    }

    @Test(arguments: [
        (StrategyKind.sniResolve, "https://api.example.com/"), (.trustOverride, "https://api.example.com/"),
        (.headerOnly, "http://api.example.com/"),
    ])
    func anotherAddressIsAConnectError(strategy: StrategyKind, url: String) throws {
        let wire = try Self.wire(strategy, url, pinned: "203.0.113.10")
        let error = try #require(TransferErrors.pinMismatch(wire: wire, evidence: TransferEvidence(connectedIP: "203.0.113.99")))
        #expect(error.kind == .connect)
        #expect(error.message == "connected to 203.0.113.99, but the strategy pinned 203.0.113.10")
    }

    @Test func noConnectedAddressIsAMismatchToo() throws {
        let wire = try Self.wire(.sniResolve, "https://api.example.com/", pinned: "203.0.113.10")
        let error = try #require(TransferErrors.pinMismatch(wire: wire, evidence: TransferEvidence(connectedIP: nil)))
        #expect(error.message == "connected to an unknown address, but the strategy pinned 203.0.113.10")
    }

    @Test(arguments: [("203.0.113.10", "203.0.113.10"), ("2001:db8::10", "2001:db8::10"), ("2001:db8::10", "2001:0db8:0:0:0:0:0:10")])
    func theSameAddressInAnySpellingIsNoMismatch(pinned: String, connected: String) throws {
        let wire = try Self.wire(.sniResolve, "https://api.example.com/", pinned: pinned)
        #expect(TransferErrors.pinMismatch(wire: wire, evidence: TransferEvidence(connectedIP: connected)) == nil)
    }

    @Test func systemPinsNothingSoNothingIsChecked() throws {
        let wire = try Self.wire(.system, "https://api.example.com/", pinned: nil)
        #expect(TransferErrors.pinMismatch(wire: wire, evidence: TransferEvidence(connectedIP: "198.51.100.1")) == nil)
    }
}
