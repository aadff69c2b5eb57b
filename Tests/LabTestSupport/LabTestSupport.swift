import Foundation
import PlanFixtures
import RunnerLab

/// One lab for the whole test process, started on first use (ephemeral ports).
public enum SharedLab {
    private static let started = Task { try await Lab.start() }

    public static func get() async throws -> Lab { try await started.value }
}

/// Plans written for the lab: `{{http}}`, `{{https}}`, `{{dns}}`, `{{rank}}` (`Lab.rankPort`),
/// `{{grpc_tls}}` (`Lab.grpcTLSPort`), `{{grpc}}` (`Lab.grpcPlainPort`) and `{{ca}}` become its
/// ports and CA file.
public enum LabPlans {
    public static func fill(_ yaml: String, lab: Lab) -> String {
        yaml.replacingOccurrences(of: "{{http}}", with: String(lab.httpPort))
            .replacingOccurrences(of: "{{https}}", with: String(lab.httpsPort))
            .replacingOccurrences(of: "{{ca}}", with: lab.caFile)
            .replacingOccurrences(of: "{{dns}}", with: String(lab.dnsPort))
            .replacingOccurrences(of: "{{rank}}", with: String(lab.rankPort))
            .replacingOccurrences(of: "{{grpc_tls}}", with: String(lab.grpcTLSPort))
            .replacingOccurrences(of: "{{grpc}}", with: String(lab.grpcPlainPort))
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

    /// - Parameter signal: sent to the process at its moment, if it still runs.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        signal: ChildProcess.Signal? = nil, deadline: Duration = .seconds(120)
    ) async throws -> ProcessOutput {
        let executable = url(name)
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        let childEnvironment = env
        return try await offPool {
            let output = try ChildProcess.run(
                executable, arguments, environment: childEnvironment, directory: directory, signal: signal,
                deadline: deadline)
            return ProcessOutput(
                status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                stderr: String(decoding: output.stderr, as: UTF8.self))
        }
    }
}

/// The plan a guide shows (its first ```yaml block), written to a file a test can check.
public enum GuidePlan {
    /// `docs/guides/NAME`'s first YAML block, as a plan file in a temporary folder; its path.
    public static func write(_ guide: String) throws -> String {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("docs/guides/\(guide)"), encoding: .utf8)
        guard let start = text.range(of: "```yaml\n"),
            let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
        else { throw GuidePlanMissing(guide: guide) }
        let file = try LabPlans.temporaryDirectory().appendingPathComponent(guide.replacingOccurrences(of: ".md", with: ".yaml"))
        try String(text[start.upperBound..<end.lowerBound]).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    struct GuidePlanMissing: Error, CustomStringConvertible {
        var guide: String
        var description: String { "docs/guides/\(guide) has no ```yaml block" }
    }
}
