import RunnerPlan

extension HTTPDNSProblem {
    /// An OpenSSL failure while working for `scheme`: the key's or OpenSSL's (`.crypto`), or an
    /// answer that does not decrypt (`.answer`).
    static func crypto(_ failure: OpenSSLCrypto.Failure, scheme: HTTPDNSAuth.Scheme) -> HTTPDNSProblem {
        switch failure {
        case .badArgument: HTTPDNSProblem(.crypto, "\(scheme.rawValue): a key or IV of the wrong size for the cipher")
        case .unavailable(let what), .failed(let what): HTTPDNSProblem(.crypto, "\(scheme.rawValue): \(what)")
        case .badPadding: HTTPDNSProblem(.answer, "\(scheme.rawValue): does not decrypt (bad padding)")
        case .badTag: HTTPDNSProblem(.answer, "\(scheme.rawValue): does not decrypt (the GCM tag does not match: another key?)")
        }
    }
}
