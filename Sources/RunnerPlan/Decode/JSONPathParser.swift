/// Parses `$`, `$.a.b`, `$['a b'][0]`: member names and array indices from the root, and
/// where the caller takes many values (an HTTPDNS `answer:` path) `[*]`.
///
/// Works on UTF-8 bytes (every path of a large plan goes through here); positions in
/// messages count bytes from 1, which is the character position for ASCII paths.
enum JSONPathParser {
    struct Problem: Error {
        var message: String
    }

    /// - Parameter allowingEveryElement: whether `[*]` may appear; where one value is compared
    ///   (`expect.body.json`) it may not.
    static func parse(_ text: String, allowingEveryElement: Bool = false) -> Result<JSONPath, Problem> {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "$") else {
            return .failure(Problem(message: "a path starts with '$' (the document root), as in '$.user.id'"))
        }
        var components: [JSONPath.Component] = []
        var index = 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."):
                index += 1
                let start = index
                while index < bytes.count, !isNameDelimiter(bytes[index]) { index += 1 }
                guard index > start else {
                    return .failure(Problem(message: "expected a member name after '.' at position \(start + 1)"))
                }
                components.append(.member(String(decoding: bytes[start..<index], as: UTF8.self)))
            case UInt8(ascii: "["):
                index += 1
                guard index < bytes.count else {
                    return .failure(Problem(message: "unclosed '[' at the end"))
                }
                let quote = bytes[index]
                if quote == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") {
                    guard allowingEveryElement else {
                        return .failure(Problem(
                            message: "'[*]' at position \(index) selects every element, and one value is compared here; "
                                + "give an index such as [0]"))
                    }
                    index += 2
                    components.append(.everyElement)
                } else if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
                    index += 1
                    var name: [UInt8] = []
                    var closed = false
                    while index < bytes.count {
                        let byte = bytes[index]
                        if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                            name.append(bytes[index + 1])
                            index += 2
                            continue
                        }
                        index += 1
                        if byte == quote {
                            closed = true
                            break
                        }
                        name.append(byte)
                    }
                    guard closed else { return .failure(Problem(message: "unterminated quoted name")) }
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else {
                        return .failure(Problem(message: "expected ']' after the quoted name at position \(index + 1)"))
                    }
                    index += 1
                    components.append(.member(String(decoding: name, as: UTF8.self)))
                } else {
                    let start = index
                    var number = 0
                    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"),
                          number < Int.max / 10 - 10 {
                        number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                        index += 1
                    }
                    guard index > start, index < bytes.count, bytes[index] == UInt8(ascii: "]") else {
                        return .failure(Problem(
                            message: "expected an array index\(allowingEveryElement ? ", '*'" : "") or a quoted name inside '[…]' at position \(start + 1)"))
                    }
                    index += 1
                    components.append(.index(number))
                }
            default:
                let rest = String(decoding: bytes[index...], as: UTF8.self)
                let character = rest.first.map(String.init) ?? "?"
                return .failure(Problem(
                    message: "unexpected '\(character)' at position \(index + 1); use '.name', ['name'] or [index]"))
            }
        }
        return .success(JSONPath(components: components, text: text))
    }

    /// What ends a `.name` segment.
    private static func isNameDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "'"), UInt8(ascii: "\""),
             UInt8(ascii: " "):
            return true
        default:
            return false
        }
    }
}
