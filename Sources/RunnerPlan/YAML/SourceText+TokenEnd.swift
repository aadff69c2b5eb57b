/// Where the YAML token a plan error points at ends, for tools that underline it (`--format`).
extension SourceText {
    /// A token longer than this is ended at the end of its first line: an unterminated quote
    /// must not make every error scan the rest of a large plan.
    static let longestToken = 4096

    /// The last character of the token starting at a 1-based line and column: a quoted scalar's
    /// closing quote, a flow collection's closing bracket, a plain scalar's last character
    /// before `: `, ` #` (or, inside a flow collection, `,` `]` `}`); for anything else (a block
    /// indicator, a `-` item) the last character of the line. Nil when there is no such position.
    func tokenEnd(line: Int, column: Int, lines: SourceLines) -> SourcePosition? {
        guard line >= 1, line <= lines.starts.count else { return nil }
        let lineStart = lines.starts[line - 1]
        let lineEnd = Self.lineEnd(from: lineStart, in: bytes)
        var start = lineStart
        var counted = 1
        while start < lineEnd, counted < column {
            start += 1
            while start < lineEnd, bytes[start] & 0xC0 == 0x80 { start += 1 }
            counted += 1
        }
        guard start < lineEnd else { return nil }
        let last: Int
        switch bytes[start] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            last = closingQuote(from: start) ?? lastCharacter(before: lineEnd, after: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            last = closingBracket(from: start) ?? lastCharacter(before: lineEnd, after: start)
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: "|"), UInt8(ascii: ">"):
            let next = start + 1
            if next >= lineEnd || bytes[next] == UInt8(ascii: " ") {
                last = lastCharacter(before: lineEnd, after: start)
            } else {
                last = plainEnd(from: start, lineStart: lineStart, lineEnd: lineEnd)
            }
        default:
            last = plainEnd(from: start, lineStart: lineStart, lineEnd: lineEnd)
        }
        return position(ofByte: last, lines: lines)
    }

    private static func lineEnd(from start: Int, in bytes: [UInt8]) -> Int {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return end
    }

    /// The first byte of the last character before `end` that is not a space, at `start` or after.
    private func lastCharacter(before end: Int, after start: Int) -> Int {
        var last = end - 1
        while last > start, bytes[last] == UInt8(ascii: " ") || bytes[last] == UInt8(ascii: "\t") { last -= 1 }
        while last > start, bytes[last] & 0xC0 == 0x80 { last -= 1 }
        return max(start, last)
    }

    /// A plain scalar (or key) from `start`: up to `: `, ` #`, the line's end, and inside a flow
    /// collection (a `{` or `[` open before it on the line) `,` `]` `}`.
    private func plainEnd(from start: Int, lineStart: Int, lineEnd: Int) -> Int {
        var open = 0
        var quote: UInt8?
        for index in lineStart..<start {
            let byte = bytes[index]
            if let current = quote {
                if byte == current { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "{"), UInt8(ascii: "["): open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): open = max(0, open - 1)
            default: break
            }
        }
        var index = start
        while index < lineEnd {
            let byte = bytes[index]
            let next = index + 1 < lineEnd ? bytes[index + 1] : UInt8(ascii: " ")
            if byte == UInt8(ascii: ":"), next == UInt8(ascii: " ") || (open > 0 && (next == UInt8(ascii: ",") || next == UInt8(ascii: "}") || next == UInt8(ascii: "]"))) {
                break
            }
            if byte == UInt8(ascii: "#"), index > start, bytes[index - 1] == UInt8(ascii: " ") { break }
            if open > 0, index > start, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { break }
            index += 1
        }
        return lastCharacter(before: index, after: start)
    }

    /// The closing quote of the quoted scalar at `start` (`\"` escapes in double quotes, `''`
    /// in single quotes); nil when there is none within `longestToken` bytes.
    private func closingQuote(from start: Int) -> Int? {
        let quote = bytes[start]
        var index = start + 1
        let limit = min(bytes.count, start + Self.longestToken)
        while index < limit {
            let byte = bytes[index]
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == quote {
                if quote == UInt8(ascii: "'"), index + 1 < limit, bytes[index + 1] == quote {
                    index += 2
                    continue
                }
                return index
            }
            index += 1
        }
        return nil
    }

    /// The bracket closing the flow collection at `start` (quoted scalars inside skipped); nil
    /// when there is none within `longestToken` bytes.
    private func closingBracket(from start: Int) -> Int? {
        var depth = 0
        var index = start
        let limit = min(bytes.count, start + Self.longestToken)
        while index < limit {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A quote inside a plain scalar (`it's`) is not a quoted scalar: only one that
                // starts a value counts.
                let before = index > start ? bytes[index - 1] : UInt8(ascii: " ")
                if before == UInt8(ascii: " ") || before == UInt8(ascii: "{") || before == UInt8(ascii: "[") || before == UInt8(ascii: ",") || before == UInt8(ascii: ":") {
                    guard let close = closingQuote(from: index) else { return nil }
                    index = close
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The 1-based line and column of the character starting at byte `offset`.
    private func position(ofByte offset: Int, lines: SourceLines) -> SourcePosition {
        let line = lines.lineIndex(containingByte: offset)
        var column = 1
        var index = lines.starts[line]
        while index < offset {
            index += 1
            while index < offset, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return SourcePosition(line: line + 1, column: column)
    }
}
