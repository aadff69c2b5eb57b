import Foundation

/// Standard output and error, line by line (flushed, so results show while a run goes on).
enum Console {
    static func output(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }

    static func error(_ line: String) {
        write(line + "\n", to: STDERR_FILENO)
    }

    /// Points standard output at standard error, for the rest of the process: a report that
    /// takes standard output (`--junit -`) keeps a copy of the original descriptor, and every
    /// line the console writes — results, progress, summary — goes to standard error instead,
    /// as curl and jq users expect.
    static func moveOutputToStandardError() {
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
    }

    /// Whether standard output is a terminal (for `--color auto`).
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard error is a terminal (for `--progress auto`).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Columns of the terminal on standard error; nil when it is not one or does not say.
    static var errorTerminalWidth: Int? {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes all of `text`, retrying what a signal or a short write left. A closed pipe or a
    /// full disk drops the rest: nothing the runner could do would bring it back.
    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
