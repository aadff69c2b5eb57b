import Foundation
import PlanFixtures
import RunnerLab

#if canImport(Glibc)
import Glibc
#endif

/// One request for the system curl to send through the capturing proxy: curl's arguments, the URL
/// among them (the proxy, its CA and the output options are added).
public struct CapturedCurl: Sendable {
    public var arguments: [String]

    public init(_ arguments: [String]) { self.arguments = arguments }
}

/// A real HAR capture of traffic to the lab, made as a person would make one of an app's traffic:
/// mitmproxy's `mitmdump` (PyPI, in `.tools/mitmproxy`, see `tools/install-mitmproxy.sh`) as an
/// HTTPS proxy, curl as the app, the HAR its `savehar` addon writes when it shuts down.
///
/// The lab's names resolve nowhere here; the addon `tools/mitmproxy-lab-hosts.py` sends
/// api.lab.test's connections to `LabAddress.primary`, so the HAR keeps the URL the client asked
/// for (`https://api.lab.test:PORT/…`) and records 127.0.0.2 as its `serverIPAddress`. mitmdump
/// checks the lab's certificate against the lab CA; curl trusts the CA mitmdump made in its own
/// `confdir`.
public enum MitmproxyCapture {
    /// mitmdump, in the virtual environment `make deps` makes for it.
    public static var mitmdump: URL { Repository.root.appendingPathComponent(".tools/mitmproxy/bin/mitmdump") }
    /// The addon that maps the lab's names to its addresses.
    public static var labHostsAddon: URL { Repository.root.appendingPathComponent("tools/mitmproxy-lab-hosts.py") }
    /// The names the proxy connects to a lab address, and which.
    public static let labHosts: [(name: String, address: String)] = [("api.lab.test", LabAddress.primary)]
    /// The system curl, the "app" of a capture.
    public static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    /// How long each step of a capture may take before it fails.
    static let startDeadline: Duration = .seconds(60)
    static let curlDeadline: Duration = .seconds(60)
    static let stopDeadline: Duration = .seconds(30)

    /// How long the steps of one capture took.
    public struct Timings: Sendable, CustomStringConvertible {
        /// From starting mitmdump to its "listening" line (its CA made on a first start).
        public var start: Duration
        /// The session's requests.
        public var session: Duration
        /// From SIGTERM to mitmdump's exit, the HAR written.
        public var stop: Duration

        public var description: String { "mitmdump start \(start), session \(session), stop and HAR \(stop)" }
    }

    /// A finished capture: the HAR file, what the session returned, how long it took.
    public struct Capture<Result: Sendable>: Sendable {
        public var har: URL
        public var result: Result
        public var timings: Timings
    }

    /// The running proxy a session sends its requests through.
    public struct Proxy: Sendable {
        /// The loopback port mitmdump listens on.
        public var port: Int
        /// The CA mitmdump signs its certificates with (in its confdir), for curl to trust.
        public var caFile: URL

        /// Runs curl with `request`'s arguments through the proxy; its output. Throws when curl
        /// fails (exit status not 0), with what it printed.
        public func curl(_ request: CapturedCurl) async throws -> ProcessOutput {
            // `--noproxy ""`: a NO_PROXY of the environment must not send a request around the proxy.
            let arguments =
                [
                    "--silent", "--show-error", "--max-time", "30", "--proxy", "http://127.0.0.1:\(port)", "--noproxy", "",
                    "--cacert", caFile.path,
                ] + request.arguments
            let output = try await offPool {
                try ChildProcess.run(MitmproxyCapture.curl, arguments, deadline: MitmproxyCapture.curlDeadline)
            }
            let result = ProcessOutput(
                status: output.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                stderr: String(decoding: output.stderr, as: UTF8.self))
            guard result.status == 0 else { throw CurlFailed(arguments: request.arguments, output: result) }
            return result
        }
    }

    /// Records `requests`, sent in order, in a HAR file in `directory`; its URL.
    public static func record(lab: Lab, directory: URL, requests: [CapturedCurl]) async throws -> URL {
        try await record(lab: lab, directory: directory) { proxy in
            for request in requests { _ = try await proxy.curl(request) }
        }.har
    }

    /// Starts mitmdump in `directory` (its confdir, logs and `capture.har` there), runs `session`
    /// with it, stops it and returns the HAR it wrote. Every step has a deadline; a failure throws
    /// with mitmdump's output.
    public static func record<Result: Sendable>(
        lab: Lab, directory: URL, session: (Proxy) async throws -> Result
    ) async throws -> Capture<Result> {
        let har = directory.appendingPathComponent("capture.har")
        let confdir = directory.appendingPathComponent("mitmproxy")
        let stdoutLog = directory.appendingPathComponent("mitmdump.stdout")
        let stderrLog = directory.appendingPathComponent("mitmdump.stderr")
        guard FileManager.default.isExecutableFile(atPath: mitmdump.path) else {
            throw MitmdumpFailed(step: "find \(mitmdump.path) (`make deps` installs it: tools/install-mitmproxy.sh)", logs: "")
        }
        try FileManager.default.createDirectory(at: confdir, withIntermediateDirectories: true)
        let arguments = [
            "--listen-host", "127.0.0.1", "--listen-port", "0",  // the port it got is in its first line
            "--set", "flow_detail=0",  // no line per flow: only start, errors, the HAR's saving
            "--set", "confdir=\(confdir.path)",
            "--set", "ssl_verify_upstream_trusted_ca=\(lab.caFile)",
            "--set", "hardump=\(har.path)",
            "-s", labHostsAddon.path,
            "--set", "lab_hosts=" + labHosts.map { "\($0.name)=\($0.address)" }.joined(separator: ","),
        ]
        // mitmdump's output goes to files (the shell execs it, so the pid is mitmdump's): readable
        // while it runs, for its "listening" line, and kept in `directory` after.
        let script = #"out=$1 err=$2; shift 2; exec "$@" > "$out" 2> "$err""#
        let started = ContinuousClock.now
        let child = try await spawn(["/bin/sh", "-c", script, "mitmdump-capture", stdoutLog.path, stderrLog.path, mitmdump.path] + arguments)
        defer {
            child.stdout.map { _ = close($0) }
            _ = close(child.stderr)
        }
        func logs() -> String {
            let out = (try? String(contentsOf: stdoutLog, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? ""
            return "mitmdump's stdout:\n\(out)\nmitmdump's stderr:\n\(err)"
        }
        func kill() async throws {
            child.send(SIGKILL)
            _ = try await offPool { child.wait(deadline: .seconds(10)) }
        }

        let port: Int
        do {
            port = try await listeningPort(stdoutLog, child: child)
        } catch {
            try await kill()
            throw MitmdumpFailed(step: "start (\(error))", logs: logs())
        }
        let listening = ContinuousClock.now
        let caFile = confdir.appendingPathComponent("mitmproxy-ca-cert.pem")
        let result: Result
        do {
            guard FileManager.default.fileExists(atPath: caFile.path) else {
                throw MitmdumpFailed(step: "make its CA \(caFile.path)", logs: "")
            }
            result = try await session(Proxy(port: port, caFile: caFile))
        } catch {
            try await kill()
            throw MitmdumpFailed(step: "capture the session: \(error)", logs: logs())
        }
        let sessionDone = ContinuousClock.now

        // SIGTERM shuts mitmdump down as SIGINT does; savehar writes the HAR in its `done` hook,
        // before the process exits, so its exit means a complete file.
        child.send(SIGTERM)
        let ended = try await offPool { child.wait(deadline: stopDeadline) }
        guard let ended else {
            try await kill()
            throw MitmdumpFailed(step: "stop within \(stopDeadline) of SIGTERM", logs: logs())
        }
        guard ended == .exited(0) else { throw MitmdumpFailed(step: "stop: it ended \(ended)", logs: logs()) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: har.path),
            let size = attributes[.size] as? Int, size > 0
        else {
            throw MitmdumpFailed(step: "write \(har.path)", logs: logs())
        }
        let timings = Timings(start: listening - started, session: sessionDone - listening, stop: .now - sessionDone)
        return Capture(har: har, result: result, timings: timings)
    }

    /// Spawns `command` under `setpriv --pdeathsig KILL` (when there is setpriv), so a test process
    /// that crashes leaves no mitmdump behind, from a thread of its own that lives until the child
    /// ends (the kernel watches the thread that spawned, as for `UnboundDoH`).
    static func spawn(_ command: [String]) async throws -> RunningChild {
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let line = setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + command } ?? command
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let result = Result { try RunningChild(URL(fileURLWithPath: line[0]), Array(line.dropFirst())) }
                continuation.resume(with: result)
                if case .success(let child) = result { _ = child.wait(deadline: .seconds(24 * 3600)) }
            }
            thread.name = "mitmdump parent"
            thread.start()
        }
    }

    /// The port of mitmdump's "HTTP(S) proxy listening at 127.0.0.1:PORT." line, once written.
    static func listeningPort(_ log: URL, child: RunningChild) async throws -> Int {
        let deadline = ContinuousClock.now + startDeadline
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let port = listeningPort(in: text) { return port }
            guard child.isRunning else { throw StartFailed(reason: "it exited before listening") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartFailed(reason: "no \"listening at\" line within \(startDeadline)")
    }

    /// The port in mitmdump's "proxy listening at HOST:PORT." line; nil before that line is complete.
    static func listeningPort(in log: String) -> Int? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("proxy listening at ") }),
            let colon = line.lastIndex(of: ":"), line.hasSuffix(".")
        else { return nil }
        return Int(line[line.index(after: colon)..<line.index(before: line.endIndex)])
    }

    struct StartFailed: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// mitmdump did not do its part; `logs` is what it printed.
    public struct MitmdumpFailed: Error, CustomStringConvertible {
        public var step: String
        public var logs: String
        public var description: String { "mitmdump did not \(step)\n\(logs)" }
    }

    /// curl, through the proxy, failed.
    public struct CurlFailed: Error, CustomStringConvertible {
        public var arguments: [String]
        public var output: ProcessOutput
        public var description: String {
            "curl \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)\(output.stdout.prefix(2000))"
        }
    }
}
