/// One thing wrong with an app's trust file (a Network Security Config, an Info.plist), located
/// where the platform would stop on it.
public struct AppTrustFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based; 1 for a binary plist, which has no lines (the message names the key path).
    public var line: Int
    /// 1-based.
    public var column: Int
    public var message: String
    /// The offending source line, for the caret display (nil when there is none to show).
    public var sourceLine: String?

    public init(path: String, line: Int, column: Int, message: String, sourceLine: String? = nil) {
        self.path = path
        self.line = max(1, line)
        self.column = max(1, column)
        // A hostile file's text is quoted back: it must show as text, not drive the terminal.
        self.message = Self.visible(message)
        self.sourceLine = sourceLine.map(Self.visible)
    }

    /// `PATH:LINE:COL: error: MESSAGE` — the one-line form tests and tools match on.
    public var description: String { "\(path):\(line):\(column): error: \(message)" }

    /// The one-line form followed by the source line and a caret under the column.
    public var rendered: String {
        guard let sourceLine else { return description }
        let caretPadding = String(repeating: " ", count: column - 1)
        return "\(description)\n    \(sourceLine)\n    \(caretPadding)^"
    }

    /// Control characters (C0 but tab, DEL, C1, the line and paragraph separators) as `\u{…}`.
    static func visible(_ text: String) -> String {
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x08, 0x0A...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
