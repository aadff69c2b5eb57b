import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// The checks of mobile trust: the pin set against the verified chain, a profile's leaf rules,
/// and the negotiated version and cipher.
extension ExpectationChecker {
    static let noSession = "no TLS session (not a TLS connection)"

    /// `expect.certificate.pins`: any certificate of the chain matches any pin. A miss lists every
    /// chain certificate's pin and subject, leaf first: what to pin is in the message.
    static func pinProblems(_ pins: [[UInt8]], observed: ObservedResponse) -> [Problem] {
        let subject = "certificate pins"
        // Written only for a problem: a passing result (most) reads no text.
        var expected: String { "one of " + pins.map { ChainCertificate.pinText($0) }.joined(separator: ", ") }
        guard let session = observed.tls, !session.chain.isEmpty else {
            return [Problem(subject: subject, expected: expected, actual: noSession)]
        }
        guard !session.chain.contains(where: { pins.contains($0.spkiSHA256) }) else { return [] }
        let chain = session.chain.map { "\($0.pin) (\($0.subject))" }.joined(separator: ", ")
        let kind = session.chainIsUnverified ? "chain as presented (not verified)" : "chain"
        return [Problem(subject: subject, expected: expected, actual: "\(kind) \(chain)")]
    }

    /// The profile's rules for the leaf, each broken one a problem naming it.
    static func profileProblems(_ profile: TLSProfile, observed: ObservedResponse) -> [Problem] {
        let subject = "tls profile \(profile.rawValue)"
        guard let leaf = observed.tls?.chain.first else {
            return [Problem(subject: subject, expected: "a TLS connection with a leaf certificate", actual: noSession)]
        }
        return profile.brokenLeafRules(leaf).map { Problem(subject: subject, expected: $0.expected, actual: $0.actual) }
    }

    /// `expect.tls`: the negotiated version and cipher.
    static func tlsProblems(_ expectation: TLSExpectation, observed: ObservedResponse, context: Context) -> [Problem] {
        var problems: [Problem] = []
        if let version = expectation.version {
            let actual = observed.tls.map { $0.version?.displayName ?? "an unknown version" } ?? noSession
            if observed.tls?.version != version {
                problems.append(Problem(subject: "tls version", expected: version.displayName, actual: actual))
            }
        }
        if let matcher = expectation.cipher {
            let expected = VerdictText.describe(matcher, masking: context.redactor)
            if let cipher = observed.tls?.cipher {
                switch context.evaluate(matcher, on: cipher) {
                case .met: break
                case .unmet: problems.append(Problem(subject: "tls cipher", expected: expected, actual: cipher))
                case .failed(let reason): problems.append(Problem(subject: "tls cipher", expected: expected, actual: reason))
                }
            } else {
                problems.append(Problem(subject: "tls cipher", expected: expected, actual: noSession))
            }
        }
        return problems
    }
}
