import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking work on its own thread, off the Swift concurrency pool the tests share (two
/// threads on this machine: a test blocking one would hold up every other test's awaits).
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs programs for tests with posix_spawn, with a deadline, reading their output with read(2).
///
/// The one way tests start processes, and not with Foundation's `Process`: on Linux its `run()`
/// reads past a `dirent` while listing `/proc/self/fd` and crashes now and then
/// (swift-corelibs-foundation#5472, fixed after Swift 6.3.1) — in a parallel test run, with
/// many descriptors open, about one run in three, each crash then freezing the process for the
/// ~90 s the backtracer takes. Its SIGCHLD source also makes blocking reads fail with EINTR,
/// on which `FileHandle.readDataToEndOfFile` traps.
public enum ChildProcess {
    public struct Output: Sendable {
        /// The exit status, or the number of the signal that ended the child.
        public var status: Int32
        public var termination: Termination
        public var stdout: Data
        public var stderr: Data
    }

    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        var status: Int32 {
            switch self {
            case .exited(let code), .signalled(let code): code
            }
        }
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

    /// The child could not be started.
    public struct SpawnFailed: Error, CustomStringConvertible {
        public var command: String
        public var errorNumber: Int32

        public var description: String { "could not start \(command): \(String(cString: strerror(errorNumber)))" }
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

    /// Runs `executable` with `arguments` to its end, sending `signal` if it still runs at that moment.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        signal: Signal? = nil, deadline: Duration = .seconds(120)
    ) throws -> Output {
        let child = try RunningChild(
            executable, arguments, environment: environment, directory: directory, captureStdout: true)
        var watch: ((Data) -> Bool)?
        switch signal?.moment {
        case .after(let seconds)?:
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if let signal { child.send(signal.number) }
            }
        case .whenStdoutContains(let text)?:
            watch = { output in
                guard output.range(of: Data(text.utf8)) != nil else { return false }
                if let signal { child.send(signal.number) }
                return true
            }
        case nil:
            break
        }
        // Both pipes are drained at once, so a chatty child never blocks on a full one.
        let stdout = child.stdout.map { PendingRead($0, watch: watch) }
        let stderr = PendingRead(child.stderr)
        guard let termination = child.wait(deadline: deadline) else {
            child.send(SIGKILL)
            _ = child.wait(deadline: .seconds(3600))
            throw TimedOut(
                command: child.command, deadline: deadline, stdout: stdout?.wait() ?? Data(), stderr: stderr.wait())
        }
        return Output(
            status: termination.status, termination: termination, stdout: stdout?.wait() ?? Data(),
            stderr: stderr.wait())
    }
}

/// A started child: its pid, the read ends of its output pipes, and its end once it comes.
///
/// A waiter thread waits for the exit without reaping (`waitid` with `WNOWAIT`), then reaps
/// under the lock that `send` takes: a signal can never reach another process that was given
/// the same pid after this one was reaped.
public final class RunningChild: @unchecked Sendable {
    public let pid: pid_t
    let command: String
    /// Read end of standard output (nil when it was not captured: left unread by the test).
    public let stdout: Int32?
    public let stderr: Int32
    /// Read end of standard output when the test keeps it unread (to fill the pipe).
    public let unreadStdout: Int32?
    private let lock = NSLock()
    private var termination: ChildProcess.Termination?
    private let ended = DispatchSemaphore(value: 0)

    /// - Parameter captureStdout: false keeps the pipe, unread, in `unreadStdout`.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        captureStdout: Bool = true
    ) throws {
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        // Close-on-exec: another child spawned meanwhile must not hold these open.
        guard pipeWithFlags(&outPipe, O_CLOEXEC) == 0, pipeWithFlags(&errPipe, O_CLOEXEC) == 0 else {
            throw ChildProcess.SpawnFailed(command: command, errorNumber: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // Nothing else of the test process (sockets of the lab, of libcurl) reaches the child.
        spawnAddCloseFrom(&actions, 3)
        if let directory { spawnAddChdir(&actions, directory.path) }

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // The child starts with no signal blocked and every signal at its default, whatever the
        // test process's threads block or ignore.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw ChildProcess.SpawnFailed(command: command, errorNumber: result)
        }
        self.pid = pid
        stdout = captureStdout ? outPipe[0] : nil
        unreadStdout = captureStdout ? nil : outPipe[0]
        stderr = errPipe[0]
        Thread { [self] in waitForEnd() }.start()
    }

    deinit {
        if let unreadStdout { close(unreadStdout) }
    }

    private func waitForEnd() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        var status: Int32 = 0
        lock.withLock {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            let signalNumber = status & 0x7F
            termination = signalNumber == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signalNumber)
        }
        ended.signal()
    }

    /// Sends `signal` if the child has not been reaped yet.
    public func send(_ signal: Int32) {
        lock.withLock {
            if termination == nil { kill(pid, signal) }
        }
    }

    public var isRunning: Bool { lock.withLock { termination == nil } }

    /// How the child ended, or nil when it still runs after `deadline`.
    public func wait(deadline: Duration) -> ChildProcess.Termination? {
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        guard ended.wait(timeout: .now() + seconds) == .success else { return nil }
        ended.signal()  // later waits return at once
        return lock.withLock { termination }
    }
}

// glibc has these (pipe2 since 2.9, the spawn actions since 2.29 and 2.34), but its headers
// declare them only under _GNU_SOURCE, which the Glibc module does not set.
@_silgen_name("pipe2")
private func pipeWithFlags(_ descriptors: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnAddChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32

/// Reads a descriptor to its end on a thread of its own, retrying reads a signal interrupted,
/// then closes it.
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
            close(descriptor)
            data = collected
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
