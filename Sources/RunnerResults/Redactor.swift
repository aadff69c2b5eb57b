import Foundation

/// Masks secret values (from `${secret:…}`) as `***` in any text bound for a person or a file.
public struct Redactor: Sendable, Equatable {
    public static let mask = "***"
    /// Longest first, so a secret that contains another is masked whole.
    public let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        return result
    }
}
