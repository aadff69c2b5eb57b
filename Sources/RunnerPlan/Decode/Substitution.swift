/// A variable's value, and the same with its secret parts masked.
struct ResolvedVariable: Sendable {
    var value: String
    var shown: String
}

extension PlanDecoder {
    /// The text of a scalar node with `${…}` substituted; nil (reported) when the node is a
    /// collection or a reference does not resolve.
    func text(_ node: YAMLNode, expected: String, for site: Site) -> Text? {
        guard case .scalar(let raw, let style) = node.content else {
            report(at: node.mark, "expected \(expected) for \(site), got \(node.kindDescription)")
            return nil
        }
        guard let substituted = substitute(raw, at: node.mark) else { return nil }
        return Text(
            value: substituted.value, shown: substituted.shown, mark: node.mark, style: style,
            forcedString: Text.isStringTag(node.tag))
    }

    /// Replaces `${name}`, `${env:NAME}` and `${secret:NAME}`; `$${` stands for a literal `${`.
    /// Reports the first reference that does not resolve (at the scalar) and returns nil.
    func substitute(_ raw: String, at mark: YAMLMark, allowVariables: Bool = true) -> ResolvedVariable? {
        // Most scalars hold no `$`: leave them untouched.
        guard raw.containsByte(UInt8(ascii: "$")) else { return ResolvedVariable(value: raw, shown: raw) }
        switch expand(raw, allowVariables: allowVariables, record: true) {
        case .success(let resolved): return resolved
        case .failure(let problem):
            if !problem.alreadyReported { report(at: mark, problem.message) }
            return nil
        }
    }

    /// The masked form of `raw` if it resolves, with no error reported and no secret recorded.
    func quietlySubstitute(_ raw: String) -> String? {
        guard case .success(let resolved) = expand(raw, allowVariables: true, record: false) else { return nil }
        return resolved.shown
    }

    private func expand(_ raw: String, allowVariables: Bool, record: Bool) -> Result<ResolvedVariable, Problem> {
        let dollar = UInt8(ascii: "$"), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        let utf8 = raw.utf8
        var value = ""
        // Only made when a secret shows up: until then it equals `value`.
        var shown: String?
        var literalStart = utf8.startIndex
        var index = utf8.startIndex
        func appendLiteral(upTo end: String.Index) {
            value += raw[literalStart..<end]
            shown? += raw[literalStart..<end]
        }
        while index < utf8.endIndex {
            guard utf8[index] == dollar else {
                index = utf8.index(after: index)
                continue
            }
            let next = utf8.index(after: index)
            guard next < utf8.endIndex else { break }
            if utf8[next] == dollar {
                let third = utf8.index(after: next)
                if third < utf8.endIndex, utf8[third] == open {
                    // `$${` is a literal `${`: keep one `$` and the brace.
                    appendLiteral(upTo: next)
                    literalStart = third
                    index = utf8.index(after: third)
                } else {
                    index = next
                }
                continue
            }
            guard utf8[next] == open else {
                index = next
                continue
            }
            let nameStart = utf8.index(after: next)
            guard let end = utf8[nameStart...].firstIndex(of: close) else {
                return .failure(Problem("unterminated '${' (no closing '}'); write '$${' for a literal '${'"))
            }
            switch resolve(String(raw[nameStart..<end]), allowVariables: allowVariables, record: record) {
            case .failure(let problem):
                return .failure(problem)
            case .success(let resolved):
                appendLiteral(upTo: index)
                if shown == nil, resolved.shown != resolved.value { shown = value }
                value += resolved.value
                shown? += resolved.shown
            }
            index = utf8.index(after: end)
            literalStart = index
        }
        appendLiteral(upTo: utf8.endIndex)
        return .success(ResolvedVariable(value: value, shown: shown ?? value))
    }

    private func resolve(_ reference: String, allowVariables: Bool, record: Bool) -> Result<ResolvedVariable, Problem> {
        if reference.hasPrefix("env:") || reference.hasPrefix("secret:") {
            let isSecret = reference.hasPrefix("secret:")
            let name = String(reference.dropFirst(isSecret ? 7 : 4))
            guard !name.isEmpty else {
                return .failure(Problem("missing environment variable name in '${\(reference)}'"))
            }
            guard let value = environment[name] else {
                return .failure(Problem("environment variable '\(name)' is not set"))
            }
            guard isSecret else { return .success(ResolvedVariable(value: value, shown: value)) }
            if record { recordSecret(value) }
            return .success(ResolvedVariable(value: value, shown: "***"))
        }
        guard !reference.isEmpty else {
            return .failure(Problem("empty reference '${}'; write '$${' for a literal '${'"))
        }
        guard allowVariables else {
            return .failure(Problem(
                "a variable cannot use another variable ('${\(reference)}'); vars may only use ${env:…} and ${secret:…}"))
        }
        if failedVariables.contains(reference) {
            // Its own definition is already reported; do not add noise at every use.
            return .failure(Problem("", alreadyReported: true))
        }
        guard let variable = variables[reference] else {
            let hint = Suggestion.closest(to: reference, among: variables.keys.sorted()).map { "; did you mean '\($0)'?" }
                ?? "; define it under 'vars' or pass --var \(reference)=VALUE"
            return .failure(Problem("undefined variable '\(reference)'\(hint)"))
        }
        return .success(variable)
    }

    struct Problem: Error {
        var message: String
        var alreadyReported = false
        init(_ message: String, alreadyReported: Bool = false) {
            self.message = message
            self.alreadyReported = alreadyReported
        }
    }
}

extension String {
    /// Whether the UTF-8 form holds `byte`, scanning contiguous storage (the generic
    /// `utf8.contains` is several times slower, and runs for every scalar of a plan).
    func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }

    /// Whether the UTF-8 form holds CR, LF or NUL.
    var containsLineBreakOrNUL: Bool {
        let check: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        return utf8.withContiguousStorageIfAvailable { $0.contains(where: check) } ?? utf8.contains(where: check)
    }
}
