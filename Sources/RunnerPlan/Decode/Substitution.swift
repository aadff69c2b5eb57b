#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RunnerVocabulary

/// A variable's value, and the same with its secret parts masked.
struct ResolvedVariable: Sendable {
    var value: String
    var shown: String
    /// The unset environment variables that went into it (`runner check --no-env`): the value
    /// is not known, so what it makes is not checked.
    var unset: [EnvironmentVariableUse] = []
}

extension PlanDecoder {
    /// The text of a scalar node with `${…}` substituted; nil (reported) when the node is a
    /// collection or a reference does not resolve.
    func text(_ node: YAMLNode, expected: @autoclosure () -> String, for site: @autoclosure () -> Site) -> Text? {
        guard let scalar = node.scalar else {
            report(at: node.mark, "expected \(expected()) for \(site()), got \(node.kindDescription)")
            return nil
        }
        let forcedString = Text.isStringTag(scalar.tag)
        // Most scalars hold no `${` (the tree knows, per distinct text): the text as written,
        // with no `ResolvedVariable` made and dropped.
        guard scalar.holdsReference else {
            return Text(value: scalar.text, mark: scalar.mark, style: scalar.style, forcedString: forcedString)
        }
        guard let substituted = substitute(scalar.text, at: scalar.mark) else { return nil }
        return Text(
            value: substituted.value, shown: substituted.shown, mark: scalar.mark, style: scalar.style,
            forcedString: forcedString)
    }

    /// Replaces `${name}`, `${env:NAME}` and `${secret:NAME}`; `$${` stands for a literal `${`.
    /// Reports the first reference that does not resolve (at the scalar) and returns nil.
    func substitute(_ raw: String, at mark: YAMLMark, allowVariables: Bool = true) -> ResolvedVariable? {
        // Most scalars hold no `${` (a lone `$`, as in a pattern's `^…$`, stays as written).
        guard raw.containsReference else { return ResolvedVariable(value: raw, shown: raw) }
        switch expand(raw, allowVariables: allowVariables, record: true) {
        case .success(let resolved):
            if !resolved.unset.isEmpty { unknownValues[mark] = resolved.unset }
            return resolved
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

    /// Works on the UTF-8 bytes (references are delimited by ASCII, so every cut is a valid
    /// UTF-8 boundary): a large plan substitutes in thousands of scalars.
    private func expand(_ raw: String, allowVariables: Bool, record: Bool) -> Result<ResolvedVariable, Problem> {
        let dollar = UInt8(ascii: "$"), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        return raw.withUTF8Bytes { utf8 in
            var value: [UInt8] = []
            value.reserveCapacity(utf8.count + 16)
            // Only made when a secret shows up: until then it equals `value`.
            var shown: [UInt8]?
            var unset: [EnvironmentVariableUse] = []
            var literalStart = 0
            var index = 0
            func appendLiteral(upTo end: Int) {
                let literal = UnsafeBufferPointer(rebasing: utf8[literalStart..<end])
                value.append(contentsOf: literal)
                shown?.append(contentsOf: literal)
            }
            while index < utf8.count {
                guard utf8[index] == dollar else {
                    index += 1
                    continue
                }
                let next = index + 1
                guard next < utf8.count else { break }
                if utf8[next] == dollar {
                    let third = next + 1
                    if third < utf8.count, utf8[third] == open {
                        // `$${` is a literal `${`: keep one `$` and the brace.
                        appendLiteral(upTo: next)
                        literalStart = third
                        index = third + 1
                    } else {
                        index = next
                    }
                    continue
                }
                guard utf8[next] == open else {
                    index = next
                    continue
                }
                let nameStart = next + 1
                var end = nameStart
                while end < utf8.count, utf8[end] != close { end += 1 }
                guard end < utf8.count else {
                    return .failure(Problem("unterminated '${' (no closing '}'); write '$${' for a literal '${'"))
                }
                let name = UnsafeBufferPointer(rebasing: utf8[nameStart..<end])
                // The namespace read from the bytes: most references are a variable's name.
                let namespace = Namespace(of: name)
                if namespace == .capture {
                    // Filled in at run time: the text holds nothing here, the place is recorded.
                    appendLiteral(upTo: index)
                    // The name after `capture:`, from the bytes when it starts with ASCII (no
                    // combining mark can join the colon, so the characters dropped are its bytes).
                    let afterPrefix = nameStart + 8
                    let captureName = afterPrefix == end || utf8[afterPrefix] < 0x80
                        ? String(decoding: UnsafeBufferPointer(rebasing: utf8[afterPrefix..<end]), as: UTF8.self)
                        : String(String(decoding: name, as: UTF8.self).dropFirst(8))
                    if let problem = captureReference(captureName, at: value.count, record: record) {
                        return .failure(problem)
                    }
                    index = end + 1
                    literalStart = index
                    continue
                }
                let reference = String(decoding: name, as: UTF8.self)
                switch resolve(reference, namespace: namespace, allowVariables: allowVariables, record: record) {
                case .failure(let problem):
                    return .failure(problem)
                case .success(let resolved):
                    appendLiteral(upTo: index)
                    if shown == nil, resolved.shown != resolved.value { shown = value }
                    value.append(contentsOf: resolved.value.utf8)
                    shown?.append(contentsOf: resolved.shown.utf8)
                    unset.append(contentsOf: resolved.unset.filter { !unset.contains($0) })
                }
                index = end + 1
                literalStart = index
            }
            appendLiteral(upTo: utf8.count)
            let text = String(decoding: value, as: UTF8.self)
            return .success(ResolvedVariable(
                value: text, shown: shown.map { String(decoding: $0, as: UTF8.self) } ?? text, unset: unset))
        }
    }

    /// What a `${…}` reference names, told by its prefix.
    private enum Namespace {
        case variable
        case env
        case secret
        case capture

        init(of name: UnsafeBufferPointer<UInt8>) {
            func starts(with prefix: StaticString) -> Bool {
                guard let base = name.baseAddress, name.count >= prefix.utf8CodeUnitCount else { return false }
                return memcmp(base, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
            }
            if starts(with: "env:") {
                self = .env
            } else if starts(with: "secret:") {
                self = .secret
            } else if starts(with: "capture:") {
                self = .capture
            } else {
                self = .variable
            }
        }
    }

    private func resolve(
        _ reference: String, namespace: Namespace, allowVariables: Bool, record: Bool
    ) -> Result<ResolvedVariable, Problem> {
        if namespace == .env || namespace == .secret {
            let isSecret = namespace == .secret
            let name = String(reference.dropFirst(isSecret ? 7 : 4))
            guard !name.isEmpty else {
                return .failure(Problem("missing environment variable name in '${\(reference)}'"))
            }
            let use = EnvironmentVariableUse(name: name, isSecret: isSecret)
            if record { recordEnvironmentUse(use) }
            guard let value = environment[name] else {
                switch unsetEnvironment {
                case .error:
                    return .failure(Problem("environment variable '\(name)' is not set"))
                case .unknown:
                    // An empty stand-in: whatever it makes is reported as not checked (a note).
                    return .success(ResolvedVariable(value: "", shown: "", unset: [use]))
                }
            }
            guard isSecret else { return .success(ResolvedVariable(value: value, shown: value)) }
            if record { recordSecret(SecretValue(name: name, value: value)) }
            return .success(ResolvedVariable(value: value, shown: "***"))
        }
        guard !reference.isEmpty else {
            return .failure(Problem("empty reference '${}'; write '$${' for a literal '${'"))
        }
        guard allowVariables else {
            return .failure(Problem(
                "a variable cannot use another variable ('${\(reference)}'); vars may only use ${env:…} and ${secret:…}"))
        }
        if !failedVariables.isEmpty, failedVariables.contains(reference) {
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

    /// A `${capture:NAME}` at `offset` (UTF-8 bytes into the substituted text): recorded when
    /// the decoder collects captures (a scenario's request), else a problem saying where they go.
    private func captureReference(_ name: String, at offset: Int, record: Bool) -> Problem? {
        guard Self.isCaptureName(name) else {
            return Problem("invalid capture name '\(name)' in '${capture:\(name)}'; \(Self.captureNameRule)")
        }
        guard record else { return nil }
        guard captureCollector != nil else {
            return Problem("${capture:\(name)} can only be used in a scenario's request: the URL's path and query, header values and 'body'")
        }
        captureCollector?.append(PendingCaptureUse(name: name, offset: offset))
        return nil
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
    /// Whether the text holds `${`: only then can substitution change it (`$${` holds one too).
    var containsReference: Bool {
        withUTF8Bytes { $0.containsReference }
    }

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

extension UnsafeBufferPointer<UInt8> {
    /// Whether UTF-8 text holds `${` (see `String.containsReference`).
    var containsReference: Bool {
        // memchr finds each `$` (few texts hold one) faster than a loop over every byte.
        guard let base = baseAddress else { return false }
        var index = 0
        while index + 1 < count, let dollar = memchr(base + index, Int32(UInt8(ascii: "$")), count - index - 1) {
            let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(dollar))
            if base[position + 1] == UInt8(ascii: "{") { return true }
            index = position + 1
        }
        return false
    }
}
