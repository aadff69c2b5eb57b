import Foundation
import RunnerLab

/// One lab for the whole test process, started on first use (ephemeral ports).
public enum SharedLab {
    private static let started = Task { try await Lab.start() }

    public static func get() async throws -> Lab { try await started.value }
}

/// Plans written for the lab: `{{http}}`, `{{https}}` and `{{ca}}` become its ports and CA file.
public enum LabPlans {
    public static func fill(_ yaml: String, lab: Lab) -> String {
        yaml.replacingOccurrences(of: "{{http}}", with: String(lab.httpPort))
            .replacingOccurrences(of: "{{https}}", with: String(lab.httpsPort))
            .replacingOccurrences(of: "{{ca}}", with: lab.caFile)
    }

    /// A fresh temporary directory for one test's files.
    public static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes `yaml` (filled for `lab`) as `name.yaml` in a fresh directory; returns its path.
    public static func write(_ yaml: String, lab: Lab, name: String = "plan") throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("\(name).yaml").path
        try fill(yaml, lab: lab).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Runs blocking work on its own thread, off the Swift concurrency pool the tests share.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// What a finished process printed and how it exited.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a built executable of this package (found beside the test binary) to completion.
public enum PackageExecutable {
    public static func url(_ name: String) -> URL {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = here.deletingLastPathComponent()
        // `swift test` runs NAME.xctest from the build folder; executables sit beside it.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// - Parameter signal: sends this signal to the process `after` seconds, if it still runs.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        signal: (number: Int32, after: Double)? = nil
    ) async throws -> ProcessOutput {
        let executable = url(name)
        return try await offPool {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = "1"
            for (key, value) in environment { env[key] = value }
            process.environment = env
            if let directory { process.currentDirectoryURL = directory }
            let outPipe = Pipe()
            let errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            try process.run()
            if let signal {
                let pid = process.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + signal.after) {
                    if process.isRunning { kill(pid, signal.number) }
                }
            }
            // Read both pipes fully before waiting, so a chatty child cannot block on a full pipe.
            let errorReader = Thread.detachedRead(errPipe.fileHandleForReading)
            let out = outPipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let err = errorReader.wait()
            return ProcessOutput(
                status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self))
        }
    }
}

extension Thread {
    /// Reads `handle` to its end on a new thread; `wait()` returns the bytes.
    fileprivate static func detachedRead(_ handle: FileHandle) -> PendingRead {
        let pending = PendingRead()
        Thread { pending.finish(handle.readDataToEndOfFile()) }.start()
        return pending
    }
}

fileprivate final class PendingRead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func finish(_ data: Data) {
        self.data = data
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
