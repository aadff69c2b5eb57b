import Foundation
import LabTestSupport
import PlanFixtures

#if canImport(Glibc)
import Glibc
#endif

/// A real Prometheus server for one test: Debian's `/usr/bin/prometheus` (2.42, from the
/// `prometheus` package `make deps` installs), started as a child process with a configuration
/// and a TSDB of its own in a temporary folder, scraping one target every second. Nothing else:
/// no rules, no Alertmanager, no remote read or write.
///
/// Its port is the kernel's pick: `--web.listen-address=127.0.0.1:0`, then the port read from
/// the `msg="Listening on" address=127.0.0.1:PORT` line it logs. Probing for a free port, closing
/// it and passing the number would leave a window in which a test elsewhere (the suite runs in
/// parallel) could take it; a listener the server binds itself cannot be lost that way.
///
/// The process runs under `setpriv --pdeathsig KILL`, spawned by a thread that waits for `stop()`
/// (as `UnboundDoH` does): should the test process end without stopping it (a crash, a killed
/// run), that thread ends with it and the kernel kills Prometheus, so no server outlives the tests.
final class PrometheusServer: @unchecked Sendable {
    static let executable = "/usr/bin/prometheus"

    /// Why the server could not be started or asked, with its log.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var log: String

        var description: String { log.isEmpty ? message : "\(message); Prometheus' log:\n\(log)" }
    }

    /// Where the server listens (HTTP API), on 127.0.0.1.
    let port: Int
    /// The temporary folder: configuration and TSDB (removed by `stop`).
    let directory: URL
    let child: RunningChild
    /// Signalled by `stop` to let the spawning thread end (the parent-death signal watches it).
    private let release: DispatchSemaphore
    private let output: ChildOutput

    private init(port: Int, directory: URL, child: RunningChild, release: DispatchSemaphore, output: ChildOutput) {
        self.port = port
        self.directory = directory
        self.child = child
        self.release = release
        self.output = output
    }

    /// What Prometheus has logged so far (it logs to standard error).
    func log() -> String { output.text() }

    /// The configuration: `target` scraped every second as job `runner`, nothing more.
    static func configuration(target: String) -> String {
        """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: runner
            static_configs:
              - targets: ["\(target)"]

        """
    }

    /// Starts Prometheus scraping `target` (HOST:PORT) and waits, for at most `deadline`, until
    /// it says where it listens and its `/-/ready` answers 200.
    /// - Throws: `Failure` with its log; the process is stopped and the folder removed first.
    /// - Parameter configuration: the whole configuration, when not `configuration(target:)`'s.
    static func start(
        scraping target: String, configuration text: String? = nil, deadline: Duration = .seconds(30)
    ) async throws -> PrometheusServer {
        let directory = try LabPlans.temporaryDirectory()
        let configuration = directory.appendingPathComponent("prometheus.yml")
        do {
            try (text ?? Self.configuration(target: target)).write(to: configuration, atomically: true, encoding: .utf8)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let prometheus = [
            executable,
            "--config.file=\(configuration.path)",
            "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:0",
        ]
        let command = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            ? ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] + prometheus : prometheus
        let release = DispatchSemaphore(value: 0)
        let child: RunningChild
        do {
            child = try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    let result = Result {
                        try RunningChild(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
                    }
                    continuation.resume(with: result)
                    if case .success = result { release.wait() }
                }
                thread.name = "prometheus parent"
                thread.start()
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let output = ChildOutput(child.stdout, child.stderr)

        // The port it bound, from its log; then readiness (its TSDB opened, the config loaded).
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var port: Int?
        var failure: String?
        while failure == nil {
            let log = output.text()
            if port == nil, let tail = log.components(separatedBy: "msg=\"Listening on\" address=127.0.0.1:").dropFirst().first {
                port = Int(tail.prefix { $0.isNumber })
            }
            if let port, (try? await get(port: port, "/-/ready"))?.status == 200 { break }
            if !child.isRunning {
                failure = "Prometheus exited before it was ready"
            } else if clock.now >= end {
                failure = port == nil
                    ? "Prometheus did not say where it listens within \(deadline)"
                    : "Prometheus on 127.0.0.1:\(port ?? 0) was not ready within \(deadline)"
            } else {
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        let server = PrometheusServer(port: port ?? 0, directory: directory, child: child, release: release, output: output)
        if let failure {
            let stopped = await server.stop()
            throw Failure(message: "\(failure) (\(stopped))", log: server.log())
        }
        return server
    }

    /// SIGTERM, a wait of at most `deadline`, then SIGKILL and another; lets the spawning thread
    /// go and removes `directory`. Says how it ended.
    func stop(deadline: Duration = .seconds(10)) async -> String {
        let child = self.child
        let outcome = (try? await offPool { () -> String in
            child.send(SIGTERM)
            if let termination = child.wait(deadline: deadline) { return "stopped by SIGTERM: \(termination)" }
            child.send(SIGKILL)
            if let termination = child.wait(deadline: .seconds(5)) {
                return "did not stop within \(deadline) of SIGTERM; killed: \(termination)"
            }
            return "pid \(child.pid) did not end even after SIGKILL"
        }) ?? "could not be waited for"
        release.signal()
        output.wait(deadline: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
        return outcome
    }

    /// `GET path` (with its query) on the server at `port`, with curl: the status and the body.
    static func get(port: Int, _ path: String) async throws -> (status: Int, body: String) {
        // --noproxy: a proxy in the environment must not stand between us and loopback.
        let output = try await offPool {
            try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-s", "--noproxy", "*", "--max-time", "5", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"],
                deadline: .seconds(15))
        }
        var lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    /// An API call (`/api/v1/…`): its `data`, when the answer is 200 with `"status": "success"`.
    func api(_ path: String) async throws -> Any {
        let (status, body) = try await Self.get(port: port, path)
        guard status == 200, let document = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            document["status"] as? String == "success", let data = document["data"]
        else { throw Failure(message: "GET \(path): HTTP \(status): \(body.prefix(2000))", log: "") }
        return data
    }

    /// An instant query's result: one `["metric": [label: value], "value": [time, "value"]]` per series.
    func query(_ promQL: String) async throws -> [[String: Any]] {
        // Only RFC 3986's unreserved characters stay as they are (`.alphanumerics` would let
        // non-ASCII letters through).
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = promQL.addingPercentEncoding(withAllowedCharacters: unreserved) ?? promQL
        let data = try await api("/api/v1/query?query=\(encoded)")
        guard let result = (data as? [String: Any])?["result"] as? [[String: Any]] else {
            throw Failure(message: "query \(promQL): no result vector in \(data)", log: "")
        }
        return result
    }

    /// The scrape targets Prometheus has (`/api/v1/targets`'s `activeTargets`).
    func activeTargets() async throws -> [[String: Any]] {
        let data = try await api("/api/v1/targets?state=active")
        return (data as? [String: Any])?["activeTargets"] as? [[String: Any]] ?? []
    }
}
