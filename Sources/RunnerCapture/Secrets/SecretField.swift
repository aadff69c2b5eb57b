/// Whether a field's name says its value is a secret: one of its words (split at punctuation
/// and camelCase, `x-api-key` → x, api, key; `accessToken` → access, token) is a secret word.
public enum SecretField {
    /// The words that mark a secret, compared in lower case.
    static let words: Set<String> = [
        "token", "secret", "key", "apikey", "sign", "signature", "auth", "authorization", "session", "sessionid",
        "password", "passwd", "pwd", "ticket", "credential", "credentials", "verifier",
    ]

    /// Headers whose values are secrets whatever they hold.
    static let alwaysSecretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Whether a header, query parameter, form field or JSON field named `name` holds a secret.
    public static func isSecret(name: String) -> Bool {
        self.words(of: name).contains { words.contains($0) }
    }

    /// Whether a request header's value is a secret: the three credential headers, or a secret word.
    public static func isSecretHeader(_ name: String) -> Bool {
        alwaysSecretHeaders.contains(name.lowercased()) || isSecret(name: name)
    }

    /// `x-api-key` → [x, api, key]; `accessToken` → [access, token]; `APIKey` → [api, key].
    public static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name)
        func flush() {
            if !current.isEmpty { words.append(String(current).lowercased()) }
            current = []
        }
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last, character.isUppercase {
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                // aB starts a word at B; in ABc the run of capitals ends before B.
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { flush() }
            }
            current.append(character)
        }
        flush()
        return words
    }
}
