import Foundation

/// A trust file's text split in lines: the caret display's line, and where a tag starts
/// (XMLParser reports the position after a start tag, the caret belongs on its `<`).
struct SourceLines: Sendable {
    let lines: [Substring]

    init(_ data: Data) {
        // A file that is not UTF-8 still gets lines (each bad byte a U+FFFD).
        let text = String(decoding: data, as: UTF8.self)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
    }

    /// The text of 1-based line `number`, nil past the end.
    func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        return String(lines[number - 1])
    }

    /// The line and column of the `<name` that opens the tag XMLParser reported at
    /// (`line`, `column`): the last one before that position, looking a few lines up for a tag
    /// written over several lines; the reported position when none is found.
    func startOfTag(_ name: String, reportedLine line: Int, reportedColumn column: Int) -> (line: Int, column: Int) {
        let opening = Array("<\(name)".utf8)
        var lineNumber = line
        var limit = column - 1
        while lineNumber >= 1, lineNumber > line - 32, let text = self.line(lineNumber) {
            let bytes = Array(text.utf8)
            let end = min(max(0, limit), bytes.count)
            var index = end - opening.count
            while index >= 0 {
                if bytes[index..<(index + opening.count)].elementsEqual(opening) {
                    let after = index + opening.count
                    // `<domain` must not be taken for `<domain-config`.
                    if after >= bytes.count || !Self.continuesName(bytes[after]) {
                        return (lineNumber, Self.column(ofByte: index, in: text))
                    }
                }
                index -= 1
            }
            lineNumber -= 1
            limit = Int.max
        }
        return (line, column)
    }

    /// Bytes that continue an XML name (ASCII letters, digits, `-`, `_`, `.`, `:`).
    private static func continuesName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    /// The 1-based column (in characters) of byte offset `offset` of `text`.
    private static func column(ofByte offset: Int, in text: String) -> Int {
        String(decoding: text.utf8.prefix(offset), as: UTF8.self).count + 1
    }
}
