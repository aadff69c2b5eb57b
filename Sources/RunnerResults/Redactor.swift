import Foundation

/// Masks secret values (from `${secret:…}`) as `***` in any text bound for a person or a file.
///
/// A secret also travels encoded — percent-encoded in a URL, base64 in a Basic `Authorization`
/// header — so those forms are masked too.
public struct Redactor: Sendable, Equatable {
    public static let mask = "***"
    /// Every form masked, longest first, so a secret that contains another is masked whole.
    public let forms: [String]

    public init(secrets: [String]) {
        var forms = Set<String>()
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                forms.insert(encoded)
            }
            // A token sent base64-encoded on its own (padding dropped: it depends on what follows).
            let base64 = Data(secret.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            if base64.count >= 8 { forms.insert(base64) }
        }
        self.forms = forms.sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
    }

    public func redact(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        var result = text
        for form in forms where result.contains(form) {
            result = result.replacingOccurrences(of: form, with: Self.mask)
        }
        return result
    }
}
