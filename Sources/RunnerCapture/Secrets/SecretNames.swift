/// The `${secret:NAME}` names of one plan: stable names from host and field
/// (`API_EXAMPLE_COM_AUTHORIZATION`), the same value under the same name, and where each is used.
struct SecretNames {
    struct Secret {
        var name: String
        var value: String
        /// Where the plan uses it, for the summary (`header authorization of 'GET /v1/me'`).
        var uses: [String]
        /// How the team should give the value, when it is not the plain text (`as the URL carries it`).
        var form: String?
    }

    private(set) var secrets: [Secret] = []

    /// The name for `value` found in `field` of a request to `host`, registered with its use.
    mutating func name(host: String, field: String, value: String, use: String, form: String? = nil) -> String {
        let base = Self.environmentName(host: host, field: field)
        var candidate = base
        var suffix = 1
        while let index = secrets.firstIndex(where: { $0.name == candidate }) {
            if secrets[index].value == value {
                if !secrets[index].uses.contains(use) { secrets[index].uses.append(use) }
                return candidate
            }
            suffix += 1
            candidate = "\(base)_\(suffix)"
        }
        secrets.append(Secret(name: candidate, value: value, uses: [use], form: form))
        return candidate
    }

    /// The name already given to `value`, if any (a value seen again elsewhere keeps its name).
    mutating func existingName(for value: String, use: String) -> String? {
        guard let index = secrets.firstIndex(where: { $0.value == value }) else { return nil }
        if !secrets[index].uses.contains(use) { secrets[index].uses.append(use) }
        return secrets[index].name
    }

    /// Uses written with a stand-in for a scenario's name, given the name once it is known.
    mutating func renameUses(from standIn: String, to name: String) {
        for index in secrets.indices {
            secrets[index].uses = secrets[index].uses.map { $0.replacingOccurrences(of: standIn, with: name) }
        }
    }

    /// A scenario that was not written: its uses go, and the secrets it alone used.
    mutating func forgetUses(containing standIn: String) {
        for index in secrets.indices {
            secrets[index].uses.removeAll { $0.contains(standIn) }
        }
        secrets.removeAll { $0.uses.isEmpty }
    }

    /// `api.example.com` and `x-api-key` → `API_EXAMPLE_COM_X_API_KEY`: upper case, every other
    /// character `_`, runs of `_` folded; a leading digit gets `H_` (names start with a letter).
    static func environmentName(host: String, field: String) -> String {
        var name = ""
        for character in "\(host)_\(field)".uppercased() {
            let keep = character.isASCII && (character.isLetter || character.isNumber)
            if keep {
                name.append(character)
            } else if !name.hasSuffix("_"), !name.isEmpty {
                name.append("_")
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        if name.isEmpty { name = "SECRET" }
        if let first = name.first, first.isNumber { name = "H_" + name }
        return name
    }
}
