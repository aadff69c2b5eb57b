import Foundation

/// The human text of a failed transfer: libcurl's own message, plus what the certificate
/// verifier saw when that explains it better (which name was checked, what the server sent).
enum FailureMessage {
    static func text(curlText: String, verification: VerificationFailure?, verifyName: String?) -> String {
        guard let verification else { return curlText }
        var details: [String] = []
        if verification.isHostnameMismatch, let verifyName {
            details.append("name checked: '\(verifyName)'")
        }
        if let leaf = verification.leaf {
            var presented = "server certificate: \(leaf.subject)"
            if !leaf.subjectAltNames.isEmpty {
                presented += " (names: \(leaf.subjectAltNames.joined(separator: ", ")))"
            }
            details.append(presented)
            if verification.isExpired, let notAfter = leaf.notAfter {
                details.append("expired \(isoDate(notAfter))")
            } else if !verification.isHostnameMismatch {
                details.append("issuer: \(leaf.issuer)")
            }
        }
        if !curlText.localizedCaseInsensitiveContains(verification.reason) {
            details.insert("verifier: \(verification.reason) (\(verification.code))", at: 0)
        }
        return details.isEmpty ? curlText : "\(curlText); " + details.joined(separator: "; ")
    }

    static func isoDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
