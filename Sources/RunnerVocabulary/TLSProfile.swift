/// A platform's TLS rules (`tls: {profile: …}`): what its clients offer, and what they require
/// of the leaf certificate after the handshake.
public enum TLSProfile: String, Sendable, Hashable, CaseIterable {
    /// An iOS app under App Transport Security.
    case iosATS = "ios-ats"

    /// The lowest version the platform offers.
    public var minVersion: TLSVersion {
        switch self {
        case .iosATS: .v1_2
        }
    }

    /// The TLS 1.2 suites the platform offers (OpenSSL names), in its order: ATS accepts only
    /// these forward-secret ECDHE suites.
    public var ciphers: [String] {
        switch self {
        case .iosATS:
            [
                "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-SHA384",
                "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES128-SHA",
                "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-SHA384",
                "ECDHE-RSA-AES128-SHA256", "ECDHE-RSA-AES128-SHA",
            ]
        }
    }

    /// `ciphers` as OpenSSL's list writes them (`A:B`), joined once: every scenario under the
    /// profile hands the same text to every transfer.
    public var cipherList: String {
        switch self {
        case .iosATS: Self.iosATSCipherList
        }
    }
    private static let iosATSCipherList = TLSProfile.iosATS.ciphers.joined(separator: ":")

    /// The names `tls.profile` takes, in the order messages list them.
    public static let names = allCases.map(\.rawValue)

    /// How the platform is named in messages.
    public var platform: String {
        switch self {
        case .iosATS: "an iOS app with ATS"
        }
    }

    /// The signature digests ATS takes as strong enough (made once: every result under the profile asks).
    private static let strongDigests: Set<String> = ["SHA256", "SHA384", "SHA512", "SHA3-256", "SHA3-384", "SHA3-512"]

    /// The leaf rules the platform applies after the handshake that `leaf` breaks, each as
    /// what the rule asks and what the leaf has; empty when it meets them all.
    public func brokenLeafRules(_ leaf: ChainCertificate) -> [(expected: String, actual: String)] {
        switch self {
        case .iosATS:
            var broken: [(expected: String, actual: String)] = []
            // OpenSSL writes the digest in capitals: uppercased (a new string) only when it did not.
            let digest = leaf.signatureDigest
            let strong = Self.strongDigests.contains(digest) || Self.strongDigests.contains(digest.uppercased())
            // Ed25519 and Ed448 sign without a separate digest, and are stronger than SHA-256.
            let digestless = digest.isEmpty && (leaf.keyType == "Ed25519" || leaf.keyType == "Ed448")
            if !strong, !digestless {
                broken.append(("a leaf signed with SHA-256 or stronger", "signed with \(leaf.signature)"))
            }
            let keyRule = "an RSA key of at least 2048 bits or an EC key of at least 256 bits"
            let strongKey = (leaf.keyType == "RSA" && leaf.keyBits >= 2048) || (leaf.keyType == "EC" && leaf.keyBits >= 256)
            if !strongKey { broken.append((keyRule, "\(leaf.keyType) \(leaf.keyBits)")) }
            return broken
        }
    }
}
