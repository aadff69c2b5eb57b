import ArgumentParser
import Foundation
import RunnerPlan
import RunnerReport

/// `runner serve`: the plans run every `--every`, the latest completed cycle served over HTTP
/// for Prometheus (`/metrics`) and people (`/report.html`, `/report.json`, `/junit.xml`).
struct ServePlans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run plans every --every and serve the latest completed cycle over HTTP.",
        discussion: """
            GET /metrics (Prometheus text), /report.html, /report.json, /junit.xml: the latest completed cycle.
            GET /-/healthy: up; /-/ready: once the first cycle has completed.
            SIGHUP re-reads the plans (plans with errors keep the running ones); SIGINT and SIGTERM stop, exit 0.
            """)

    @OptionGroup var planOptions: PlanOptions

    @OptionGroup var selection: RunSelection

    @Option(help: ArgumentHelp(
        "Time between cycle starts, e.g. 30s or 5m; a long cycle delays the next, never overlaps it.", valueName: "DURATION"))
    var every = CycleInterval(.seconds(60))

    @Option(help: ArgumentHelp("Address to serve on.", valueName: "HOST:PORT"))
    var listen = ListenAddress(host: "127.0.0.1", port: 9469)

    @Option(name: .customLong("label"), help: ArgumentHelp("A constant label on every series (repeatable), e.g. vantage=sh-telecom.", valueName: "NAME=VALUE"))
    var labels: [String] = []

    func validate() throws {
        do throws(MetricLabelError) {
            _ = try MetricLabel.parse(labels)
        } catch {
            throw ValidationError("--label: \(error.description)")
        }
    }

    func run() throws {
        let plans = try PlanFiles.load(planOptions)
        let problems = selection.problems(with: plans)
        guard problems.isEmpty else {
            problems.forEach { Console.error("error: \($0)") }
            throw ExitCode(ExitStatus.invalidInput)
        }
        // Checked in `validate`.
        let snapshot = CycleSnapshot(constantLabels: (try? MetricLabel.parse(labels)) ?? [])
        let server: MonitorServer
        do throws(MonitorServer.ListenError) {
            server = try MonitorServer(address: listen, snapshot: snapshot)
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let cycles = try MonitorCycles(
            plans: plans, planOptions: planOptions, selection: selection, every: every.duration, snapshot: snapshot)
        ServeSignals.install(reload: { cycles.reload() }, stop: { cycles.stop(signal: $0) })
        let bound = ListenAddress(host: listen.host, port: server.port)
        Console.error("serve: listening on http://\(bound)/metrics; a cycle every \(every.duration.planNotation)")
        cycles.run()
        server.stop()
        Console.error("serve: stopped")
        throw ExitCode(ExitStatus.passed)
    }
}
