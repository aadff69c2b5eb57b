import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion for a test, with a deadline, reading its output with read(2).
///
/// The one way tests start processes. Foundation's `readDataToEndOfFile` traps on EINTR
/// (`try!` inside FileHandle), which a parallel test run, with children exiting all the time,
/// does deliver; and a child that hangs must fail its test, not the whole run.
public enum ChildProcess {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
    }

    /// The child outlived its deadline and was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: String
        public var deadline: Duration
        public var stdout: Data
        public var stderr: Data

        public var description: String {
            "\(command) was still running after \(deadline) and was killed; it had written: "
                + String(decoding: stdout, as: UTF8.self) + String(decoding: stderr, as: UTF8.self)
        }
    }

    /// A signal to send the child while it runs.
    public struct Signal: Sendable {
        public enum Moment: Sendable {
            /// This many seconds after the start.
            case after(Double)
            /// As soon as standard output contains this text: an event, not a guess at timing.
            case whenStdoutContains(String)
        }

        public var number: Int32
        public var moment: Moment

        public init(_ number: Int32, _ moment: Moment) {
            self.number = number
            self.moment = moment
        }
    }

    /// Runs `executable` with `arguments`, sending `signal` if it still runs at that moment.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        signal: Signal? = nil, deadline: Duration = .seconds(120)
    ) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let pid = process.processIdentifier
        var watch: ((Data) -> Bool)?
        switch signal?.moment {
        case .after(let seconds)?:
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if process.isRunning, let signal { kill(pid, signal.number) }
            }
        case .whenStdoutContains(let text)?:
            watch = { output in
                guard output.range(of: Data(text.utf8)) != nil else { return false }
                if process.isRunning, let signal { kill(pid, signal.number) }
                return true
            }
        case nil:
            break
        }
        // Both pipes are drained at once, so a chatty child never blocks on a full one.
        let stdout = PendingRead(outPipe.fileHandleForReading.fileDescriptor, watch: watch)
        let stderr = PendingRead(errPipe.fileHandleForReading.fileDescriptor)
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            kill(pid, SIGKILL)
            exited.wait()
            let command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
            throw TimedOut(command: command, deadline: deadline, stdout: stdout.wait(), stderr: stderr.wait())
        }
        return Output(status: process.terminationStatus, stdout: stdout.wait(), stderr: stderr.wait())
    }
}

/// Reads a descriptor to its end on a thread of its own, retrying reads a signal interrupted.
private final class PendingRead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// - Parameter watch: shown the output so far after each read until it returns true.
    init(_ descriptor: Int32, watch: ((Data) -> Bool)? = nil) {
        nonisolated(unsafe) var watch = watch
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var collected = Data()
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected.append(contentsOf: buffer[0..<count])
                    if let current = watch, current(collected) { watch = nil }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break  // end of file, or an error that ends the output all the same
                }
            }
            data = collected
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
