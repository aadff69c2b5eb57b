import Foundation
import PlanFixtures
import RunnerLab

/// What a finished command printed and how it exited.
struct CommandResult: Sendable {
    let exitCode: Int32
    let output: Data
    let errorOutput: String

    var text: String { String(decoding: output, as: UTF8.self) }

    /// stdout parsed as one JSON object (what `/echo` returns).
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw CommandFailure(description: "not a JSON object: \(text)")
        }
        return object
    }

    /// stdout as one JSON object per line (several transfers with `--write-out '\n'`).
    func jsonLines() throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CommandFailure(description: "not a JSON object: \(line)")
            }
            return object
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs real command-line tools (curl, sha256sum) so the lab is checked by a client that is not ours.
enum Command {
    static func run(_ tool: String, _ arguments: [String]) async throws -> CommandResult {
        try await offPool {
            let output = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, deadline: .seconds(60))
            return CommandResult(
                exitCode: output.status, output: output.stdout, errorOutput: String(decoding: output.stderr, as: UTF8.self))
        }
    }

    /// `curl --silent --show-error` plus `arguments`.
    static func curl(_ arguments: [String]) async throws -> CommandResult {
        try await run("curl", ["--silent", "--show-error", "--max-time", "20"] + arguments)
    }
}

/// `host:port` with IPv6 literals bracketed, as URLs and `--connect-to` want them.
func authority(_ address: String, _ port: Int) -> String {
    address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
}

/// Runs `body` against a freshly started lab and always shuts it down, also when `body` throws.
func withLab<T>(
    httpPort: Int = 0, httpsPort: Int = 0, stateDirectory: String? = nil, _ body: (Lab) async throws -> T
) async throws -> T {
    let lab = try await Lab.start(httpPort: httpPort, httpsPort: httpsPort, stateDirectory: stateDirectory)
    do {
        let result = try await body(lab)
        try await lab.shutdown()
        return result
    } catch {
        try? await lab.shutdown()
        throw error
    }
}
