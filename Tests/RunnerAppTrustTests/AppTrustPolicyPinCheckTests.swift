import Testing

@testable import RunnerAppTrust

/// A verified chain judged against a policy's pins, and the leaf-only (no backup) helper.
@Suite("App trust pin check")
struct AppTrustPolicyPinCheckTests {
    static func policy(pins: [String]) -> AppTrustPolicy {
        AppTrustPolicy(
            platform: .android, source: nil, cleartextPermitted: false, anchors: ["system"], pins: pins,
            pinsEnforced: !pins.isEmpty, whyNotEnforced: pins.isEmpty ? .noPins : nil)
    }

    static let leaf = AppTrustChainCertificate(spkiSHA256: TestPins.a, isLeaf: true)
    static let intermediate = AppTrustChainCertificate(spkiSHA256: TestPins.b, isLeaf: false)
    static let root = AppTrustChainCertificate(spkiSHA256: TestPins.c, isLeaf: false)

    @Test("any certificate of the chain, root included, matches an Android/OkHttp/TrustKit pin")
    func anyCertificate() {
        #expect(Self.policy(pins: [TestPins.c]).check(chain: [Self.leaf, Self.intermediate, Self.root]) == .matched(pin: TestPins.c))
        #expect(Self.policy(pins: [TestPins.d]).check(chain: [Self.leaf, Self.intermediate, Self.root]) == .notMatched)
        #expect(Self.policy(pins: []).check(chain: [Self.leaf]) == .notChecked(.noPins))
    }

    @Test("keyed on the address: the caller marks the pins not enforced")
    func keyedOnAddress() {
        var policy = Self.policy(pins: [TestPins.a])
        policy.pinsEnforced = false
        policy.whyNotEnforced = .keyedOnAddress
        #expect(policy.check(chain: [Self.leaf]) == .notChecked(.keyedOnAddress))
    }

    @Test("pins only the leaf: the leaf's key and no spare")
    func onlyTheLeaf() {
        let chain = [Self.leaf, Self.intermediate, Self.root]
        #expect(Self.policy(pins: [TestPins.a]).pinsOnlyTheLeaf(chain: chain))
        #expect(!Self.policy(pins: [TestPins.a, TestPins.d]).pinsOnlyTheLeaf(chain: chain))
        #expect(!Self.policy(pins: [TestPins.a, TestPins.b]).pinsOnlyTheLeaf(chain: chain))
        #expect(!Self.policy(pins: [TestPins.b]).pinsOnlyTheLeaf(chain: chain))
        #expect(!Self.policy(pins: []).pinsOnlyTheLeaf(chain: chain))
    }

    @Test("the error's text: control characters shown, not sent to the terminal")
    func visibleError() {
        let error = AppTrustFileError(path: "nsc.xml", line: 2, column: 3, message: "bad \u{1B}[31m")
        #expect(error.description == "nsc.xml:2:3: error: bad \\u{1B}[31m")
    }
}
