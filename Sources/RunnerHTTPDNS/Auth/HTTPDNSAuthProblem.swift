import RunnerPlan

/// Why a query could not be signed or encrypted, or an answer not decrypted. `description` is
/// for humans; it never holds the secret or key (the schemes never put them in a text).
package struct HTTPDNSAuthProblem: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// The query URL lacks what the scheme needs (a `host` or `dn` to sign or encrypt).
        case query
        /// The answer is not what the scheme's service sends (not hex, wrong length, wrong key).
        case answer
        /// The key does not suit the cipher, or OpenSSL failed.
        case crypto
    }

    package var kind: Kind
    package var detail: String

    package init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { detail }

    /// An OpenSSL failure while working for `scheme`.
    static func crypto(_ failure: OpenSSLCrypto.Failure, scheme: HTTPDNSAuth.Scheme) -> HTTPDNSAuthProblem {
        switch failure {
        case .badArgument: HTTPDNSAuthProblem(.crypto, "\(scheme.rawValue): a key or IV of the wrong size for the cipher")
        case .unavailable(let what), .failed(let what): HTTPDNSAuthProblem(.crypto, "\(scheme.rawValue): \(what)")
        case .badPadding: HTTPDNSAuthProblem(.answer, "\(scheme.rawValue): does not decrypt (bad padding)")
        case .badTag: HTTPDNSAuthProblem(.answer, "\(scheme.rawValue): does not decrypt (the GCM tag does not match: another key?)")
        }
    }
}
