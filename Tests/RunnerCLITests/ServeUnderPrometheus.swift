import Foundation
import LabTestSupport
import PlanFixtures
import Testing

/// `runner serve` on a plan, scraped by a real Prometheus: both started, `check` run, both
/// stopped and their folders removed whatever happened, and what failed recorded with both logs.
enum ServeUnderPrometheus {
    /// - Parameters:
    ///   - configuration: Prometheus' configuration for the runner's `HOST:PORT`; nil: the
    ///     minimal one (`PrometheusServer.configuration(target:)`).
    ///   - check: what to ask Prometheus, given it and the runner's `HOST:PORT`.
    static func run(
        plan planPath: String, serveArguments: [String] = [], configuration: ((String) throws -> String)? = nil,
        check: (PrometheusServer, String) async throws -> Void
    ) async throws {
        guard FileManager.default.isExecutableFile(atPath: PrometheusServer.executable) else {
            Issue.record(Comment(rawValue:
                "\(PrometheusServer.executable) is missing. It comes with Debian's `prometheus` package, which `make test` "
                    + "installs (make deps); or: apt-get install prometheus"))
            return
        }
        let serve = try ServeTests.Serve([planPath, "--every", "500ms", "--listen", "127.0.0.1:0"] + serveArguments)
        var prometheus: PrometheusServer?
        var failure: (any Error)?
        do {
            let target = "127.0.0.1:\(try await serve.port())"
            let server = try await PrometheusServer.start(scraping: target, configuration: try configuration?(target))
            prometheus = server
            try await check(server, target)
        } catch {
            failure = error
        }
        let prometheusStopped = await prometheus?.stop()
        let serveStopped = await PrometheusScrapeTests.stop(serve)
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: planPath).deletingLastPathComponent())
        let logs = "runner serve's standard error:\n\(serve.stderr)\n\nPrometheus' log:\n\(prometheus?.log() ?? "(not started)")"
        // A CancellationError comes from ServeTests.Serve's waits, which recorded what failed.
        if let failure, !(failure is CancellationError) {
            Issue.record(Comment(rawValue: "\(failure)\n\n\(logs)"))
        }
        if let prometheusStopped {
            #expect(prometheusStopped.hasPrefix("stopped by SIGTERM: exited(0)"), "Prometheus \(prometheusStopped)\n\(logs)")
        }
        #expect(serveStopped == "exited(0)", "runner serve: \(serveStopped)\n\(logs)")
        if let prometheus {
            #expect(!FileManager.default.fileExists(atPath: prometheus.directory.path), "\(prometheus.directory.path) is left")
        }
    }
}
