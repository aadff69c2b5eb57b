/// A plan value made from captured text: literal runs, and the references that stand where a
/// secret or a captured value was, so that no literal can ever be read as a reference.
public struct PlanText: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case literal(String)
        /// `${secret:NAME}`: an environment variable the team sets.
        case secret(String)
        /// `${capture:NAME}`: a value an earlier scenario of the flow captured.
        case capture(String)
    }

    public private(set) var pieces: [Piece]

    public init(_ literal: String) {
        pieces = literal.isEmpty ? [] : [.literal(literal)]
    }

    public init(pieces: [Piece]) {
        self.pieces = []
        for piece in pieces { append(piece) }
    }

    mutating func append(_ piece: Piece) {
        if case .literal(let text) = piece {
            if text.isEmpty { return }
            if case .literal(let previous)? = pieces.last {
                pieces[pieces.count - 1] = .literal(previous + text)
                return
            }
        }
        pieces.append(piece)
    }

    /// The value as a plan writes it: `${` in literal text doubled (`$${`), references as such.
    public var planValue: String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal.replacingOccurrences(of: "${", with: "$${")
            case .secret(let name): text += "${secret:\(name)}"
            case .capture(let name): text += "${capture:\(name)}"
            }
        }
        return text
    }

    /// The literal text alone, references written `{NAME}`: for scenario names and the summary.
    public var shown: String {
        pieces.map { piece in
            switch piece {
            case .literal(let literal): literal
            case .secret(let name), .capture(let name): "{\(name)}"
            }
        }.joined()
    }

    /// The literal text when there is no reference.
    public var literal: String? {
        switch pieces.count {
        case 0: return ""
        case 1: if case .literal(let text) = pieces[0] { return text } else { return nil }
        default: return nil
        }
    }

    public var hasReferences: Bool {
        pieces.contains { if case .literal = $0 { false } else { true } }
    }

    public var captureNames: [String] {
        pieces.compactMap { if case .capture(let name) = $0 { name } else { nil } }
    }

    /// Whether a literal ends in `$` right before a reference: `$${` would read as a literal
    /// `${`, and the plan format has no way to write that `$` (a capture's value rarely does).
    var hasUnwritableDollar: Bool {
        for (index, piece) in pieces.enumerated() where index + 1 < pieces.count {
            if case .literal(let text) = piece, text.hasSuffix("$") { return true }
        }
        return false
    }

    /// Replaces every occurrence of `needle` in the literal runs with `piece`; returns whether any was.
    @discardableResult
    mutating func replace(_ needle: String, with piece: Piece) -> Bool {
        replace(needle, with: [piece])
    }

    /// Replaces every occurrence of `needle` in the literal runs with `replacement`; returns whether any was.
    @discardableResult
    mutating func replace(_ needle: String, with replacement: [Piece]) -> Bool {
        guard !needle.isEmpty else { return false }
        var replaced = false
        var result = PlanText(pieces: [])
        for existing in pieces {
            guard case .literal(let text) = existing, text.contains(needle) else {
                result.append(existing)
                continue
            }
            var parts = text.components(separatedBy: needle)
            let last = parts.removeLast()
            for part in parts {
                result.append(.literal(part))
                for piece in replacement { result.append(piece) }
            }
            result.append(.literal(last))
            replaced = true
        }
        self = result
        return replaced
    }
}
