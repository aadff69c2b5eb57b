import Dispatch
import Foundation
import RunnerReport

/// The live progress line on standard error, redrawn in place a few times a second while the
/// result lines scroll above it on standard output.
///
/// While it runs, result lines are held and written together just before each redraw: the
/// line is erased first and drawn again after them, so it always sits below the last result
/// and standard output gets exactly the bytes it would get without it. Erasing and drawing go
/// to standard error only.
final class ProgressDisplay: @unchecked Sendable {
    /// How often the line is redrawn: often enough to look alive, seldom enough to cost nothing.
    static let interval = DispatchTimeInterval.milliseconds(125)
    /// Carriage return, then erase the whole line (EL 2).
    static let erase = "\r\u{1B}[2K"

    private let counter: ProgressCounter
    private let color: Bool
    private let started = DispatchTime.now()
    private let lock = NSLock()
    private var heldLines = ""
    private var lineShown = false
    private var stopped = false
    private let timer: DispatchSourceTimer

    /// Starts drawing `counter`'s figures at once.
    init(counter: ProgressCounter, color: Bool) {
        self.counter = counter
        self.color = color
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "runner.progress"))
        timer.setEventHandler { [weak self] in self?.redraw() }
        // A run over within one interval never shows the line (nothing to watch).
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        timer.resume()
    }

    /// A result's line (or lines), printed above the progress line at the next redraw.
    func print(_ line: String) {
        lock.withLock {
            if stopped {
                Console.output(line)
            } else {
                heldLines += line
                heldLines += "\n"
            }
        }
    }

    /// Writes what is held and leaves the terminal as it would be without the line: called
    /// when the run ends, and on the way out when a second SIGINT ends the process at once.
    func stop() {
        timer.cancel()
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            if lineShown { Console.write(Self.erase, to: STDERR_FILENO) }
            lineShown = false
            flushHeldLines()
        }
    }

    private func redraw() {
        lock.withLock {
            guard !stopped else { return }
            let elapsed = Duration.nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds))
            let width = Console.errorTerminalWidth ?? 80
            let text = ProgressLine(snapshot: counter.snapshot, elapsed: elapsed).text(width: width, color: color)
            if !heldLines.isEmpty {
                if lineShown { Console.write(Self.erase, to: STDERR_FILENO) }
                flushHeldLines()
                Console.write(text, to: STDERR_FILENO)
            } else {
                Console.write(Self.erase + text, to: STDERR_FILENO)
            }
            lineShown = true
        }
    }

    private func flushHeldLines() {
        guard !heldLines.isEmpty else { return }
        Console.write(heldLines, to: STDOUT_FILENO)
        heldLines = ""
    }
}
