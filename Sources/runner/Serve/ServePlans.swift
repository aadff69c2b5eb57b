import ArgumentParser
import Foundation
import RunnerPlan
import RunnerReport
import RunnerServe

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
            Connections: a request must arrive whole within --request-timeout (else 408, then closed); a kept-alive connection idle for --idle-timeout is closed; beyond --max-connections, a new connection closes the oldest one not being answered.
            Refused, then closed: a request with a body (413), HTTP versions other than 1.0 and 1.1 (505), a head over 16 KB (431).
            """)

    @OptionGroup var planOptions: PlanOptions

    @OptionGroup var selection: RunSelection

    @Option(help: ArgumentHelp(
        "Time between cycle starts, e.g. 30s or 5m; a long cycle delays the next, never overlaps it.", valueName: "DURATION"))
    var every = DurationArgument(.seconds(60))

    @Option(help: ArgumentHelp("Address to serve on.", valueName: "HOST:PORT"))
    var listen = ListenOption(ListenAddress(host: "127.0.0.1", port: 9469))

    @Option(help: ArgumentHelp(
        "Time for a request to arrive whole (from the connection's opening, or from its first byte on a kept-alive connection) and for its response to be written; then the connection is closed, with 408 when a request was under way.",
        valueName: "DURATION"))
    var requestTimeout = DurationArgument(.seconds(10))

    @Option(help: ArgumentHelp(
        "A kept-alive connection with no request in progress is closed after this long.", valueName: "DURATION"))
    var idleTimeout = DurationArgument(.seconds(60))

    @Option(help: ArgumentHelp(
        "Connections open at once (1 to 65536); a new one beyond it closes the oldest that is not being answered. Lowered, with a warning, to what the descriptor limit leaves beside the cycles (4 × --jobs + 128).",
        valueName: "N"))
    var maxConnections = 512

    @Option(name: .customLong("label"), help: ArgumentHelp("A constant label on every series (repeatable), e.g. vantage=sh-telecom.", valueName: "NAME=VALUE"))
    var labels: [String] = []

    func validate() throws {
        guard (1...65536).contains(maxConnections) else {
            throw ValidationError("--max-connections takes a number from 1 to 65536, got \(maxConnections)")
        }
        // A connection held longer than this would serve no scraper.
        for (option, timeout) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout)]
        where timeout.duration > .seconds(3600) {
            throw ValidationError("\(option) takes a duration up to 60m, got \(timeout.duration.planNotation)")
        }
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
        // Remembered in memory between cycles without --state.
        var options = selection.runOptions
        options.addressMemory = try selection.addressMemory(inMemory: true)
        // Checked in `validate`.
        let snapshot = CycleSnapshot(constantLabels: (try? MetricLabel.parse(labels)) ?? [])
        // Descriptors first: the cap is what fits beside the cycles' own.
        let descriptors = DescriptorBudget.raised()
        let cap = DescriptorBudget.connectionCap(
            requested: maxConnections, softLimit: descriptors.softLimit, reserve: DescriptorBudget.reserve(jobs: selection.jobs))
        if let warning = descriptors.warning(requested: maxConnections, cap: cap, jobs: selection.jobs) {
            Console.error(warning)
        }
        let limits = MonitorConnectionLimits(
            requestTimeout: requestTimeout.duration, idleTimeout: idleTimeout.duration, maxConnections: cap)
        let server: MonitorServer
        do throws(MonitorServer.ListenError) {
            server = try MonitorServer(address: listen.address, snapshot: snapshot, limits: limits)
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let copies: ReportTargets
        do throws(ReportWriteError) {
            copies = try ReportTargets(junit: selection.junit, json: selection.json, html: selection.html)
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        let planOptions = planOptions
        let selection = selection
        let source = MonitorPlanSource(
            load: { try? PlanFiles.load(planOptions) }, problems: { selection.problems(with: $0) })
        let cycles = try MonitorCycles(
            plans: plans, source: source, options: options, copies: copies, every: every.duration,
            snapshot: snapshot, log: { Console.error($0) })
        SignalHandlers.install(stop: { cycles.stop(signal: $0) }, reload: { cycles.reload() })
        let bound = ListenAddress(host: listen.address.host, port: server.port)
        Console.error("serve: listening on http://\(bound)/metrics; a cycle every \(every.duration.planNotation)")
        cycles.run()
        server.stop()
        Console.error("serve: stopped")
        throw ExitCode(ExitStatus.passed)
    }
}
