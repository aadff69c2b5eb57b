import RunnerVocabulary

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
        self.message = message.withVisibleControls
        self.sourceLine = sourceLine.map(\.withVisibleControls)
    }

    /// `PATH:LINE:COL: error: MESSAGE` — the one-line form tests and tools match on.
    public var description: String { "\(path):\(line):\(column): error: \(message)" }

    /// The one-line form followed by the source line and a caret under the column.
    public var rendered: String {
        guard let sourceLine else { return description }
        let caretPadding = String(repeating: " ", count: column - 1)
        return "\(description)\n    \(sourceLine)\n    \(caretPadding)^"
    }
}
