import Foundation

/// Bytes that make swift-corelibs-foundation's XMLParser trap or crash on Linux (found by
/// fuzzing), refused before it sees them: an element name that is not UTF-8, and a processing
/// instruction without data (`<?name?>`: it calls `strlen` on libxml2's NULL). Android's
/// resource XML and Xcode's plists are UTF-8 and hold no such instruction.
enum XMLParserHazards {
    /// The first hazard's 1-based line and column (in characters) and what it is, nil when there is none.
    static func first(in data: Data) -> (line: Int, column: Int, message: String)? {
        if let position = firstInvalidUTF8(in: data) {
            return (position.line, position.column, "a byte that is not UTF-8 (the file must be UTF-8)")
        }
        if let offset = firstEmptyProcessingInstruction(in: data) {
            let position = position(ofByte: offset, in: data)
            return (position.line, position.column, "a processing instruction without data (<?name?>), which XMLParser cannot read")
        }
        return nil
    }

    /// Where the bytes stop being UTF-8.
    private static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int)? {
        if String(validating: data, as: UTF8.self) != nil { return nil }
        var line = 1
        var column = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
            }
        }
    }

    /// The offset of the first `<?` followed by a name and straight away `?>` (anywhere: one in a
    /// comment is refused too, a price paid for not parsing XML here).
    private static func firstEmptyProcessingInstruction(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { continue }
            var end = index + 2
            while end < bytes.count, !isSpaceOrEnd(bytes[end]) { end += 1 }
            if end > index + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                return index
            }
        }
        return nil
    }

    /// What ends a processing instruction's target: white space, `?` or `>`.
    private static func isSpaceOrEnd(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ">")
    }

    /// The line and column of a byte offset in UTF-8 bytes.
    private static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let prefix = data.prefix(offset)
        let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? prefix.startIndex
        return (line, String(decoding: prefix[lineStart...], as: UTF8.self).count + 1)
    }
}
