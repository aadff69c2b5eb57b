import RunnerVocabulary

/// Why a capture cannot be read: the file, the entry (from 0) when one entry is at fault, and what.
public struct HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The entry's index in `log.entries`, counting from 0; nil for a whole-file problem.
    public var entryIndex: Int?
    public var message: String

    public init(path: String, entryIndex: Int? = nil, message: String) {
        self.path = path
        self.entryIndex = entryIndex
        // A hostile capture's text is quoted back: it must show as text, not drive the terminal.
        self.message = message.withVisibleControls
    }

    /// `FILE: entry N: MESSAGE`, or `FILE: MESSAGE` for the file as a whole.
    public var description: String {
        guard let entryIndex else { return "\(path): \(message)" }
        return "\(path): entry \(entryIndex): \(message)"
    }
}
