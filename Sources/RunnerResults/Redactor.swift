import Foundation

/// Masks secret values (from `${secret:…}`, and `secret: true` captures as a run makes them)
/// as `***` in any text bound for a person or a file.
///
/// A secret also travels encoded — percent-encoded in a URL, base64 in a Basic `Authorization`
/// header — so those forms are masked too: base64 at each of the three alignments a secret can
/// have in the encoded bytes (the few bits it shares with its neighbours stay visible).
///
/// One instance is shared by every channel of a run: a secret captured on the engine's thread
/// is added before the result that captured it reaches any of them.
public final class Redactor: @unchecked Sendable {
    public static let mask = "***"
    private let lock = NSLock()
    /// Every form masked, longest first, so a secret that contains another is masked whole.
    private var masked: [String]
    private var secrets: Set<String>

    public init(secrets: [String]) {
        self.secrets = Set(secrets.filter { !$0.isEmpty })
        self.masked = Self.forms(of: self.secrets)
    }

    /// Every form masked, longest first.
    public var forms: [String] { lock.withLock { masked } }

    /// Masks `secret` from now on (a captured value); nothing when it is already masked or empty.
    public func add(_ secret: String) {
        guard !secret.isEmpty else { return }
        lock.withLock {
            guard secrets.insert(secret).inserted else { return }
            masked = Self.forms(of: secrets)
        }
    }

    private static func forms(of secrets: Set<String>) -> [String] {
        var forms = Set<String>()
        for secret in secrets {
            forms.insert(secret)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                forms.insert(encoded)
            }
            for form in Self.base64Forms(of: secret) where form.count >= 8 { forms.insert(form) }
        }
        return forms.sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
    }

    /// The base64 characters that depend on the secret alone, for each of the three offsets
    /// (modulo 3 bytes) at which it can start inside encoded data: `Basic base64(user:secret)`
    /// puts it at offset 5, so 2. Characters that share bits with the bytes before or after it
    /// are left out, so the form matches whatever surrounds the secret.
    static func base64Forms(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        return (0..<3).map { offset in
            let encoded = Array((Data(repeating: 0, count: offset) + Data(bytes)).base64EncodedString().utf8)
            let total = offset + bytes.count
            // Whole groups give 4 characters each; a last group of 1 byte gives 1 pure
            // character, of 2 bytes 2 (the next shares bits with what follows).
            let pureEnd = total / 3 * 4 + [0, 1, 2][total % 3]
            // The first group's characters that hold bits of the bytes before the secret.
            let mixedStart = [0, 2, 3][offset]
            guard pureEnd > mixedStart else { return "" }
            return String(decoding: encoded[mixedStart..<pureEnd], as: UTF8.self)
        }
    }

    public func redact(_ text: String) -> String {
        let forms = self.forms
        guard !forms.isEmpty else { return text }
        var result = text
        for form in forms where result.contains(form) {
            result = result.replacingOccurrences(of: form, with: Self.mask)
        }
        return result
    }
}
