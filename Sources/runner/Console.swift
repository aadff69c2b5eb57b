import Foundation

/// Standard output and error, line by line (flushed, so results show while a run goes on).
enum Console {
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard output is a terminal (for `--color auto`).
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
