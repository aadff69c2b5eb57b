import Foundation
import PlanFixtures
import RunnerLab

#if canImport(Glibc)
import Glibc
#endif

/// A real DNS-over-HTTPS server for tests: Debian's `unbound` (built with nghttp2; `make deps`
/// installs it), started as a child process on a free loopback port with a configuration of its
/// own in a temporary folder, answering only the lab's names.
///
/// It serves RFC 8484 at `https://doh.lab.test:PORT/dns-query` (GET `?dns=` and POST), HTTP/2
/// only, on 127.0.0.1, with a certificate for `doh.lab.test` (and IP 127.0.0.1) issued by a CA
/// made for this server with the `openssl` command (the lab's own CA keeps its key to itself):
/// trust `caFile`, or `trustBundle(adding:)` for both it and the lab's CA. What it answers:
///
/// | name | answer |
/// | --- | --- |
/// | `api.lab.test` | A `LabAddress.primary` (127.0.0.2), AAAA `LabAddress.ipv6` (::1) |
/// | `alias.lab.test` | CNAME `api.lab.test`, followed in the same answer to its A or AAAA |
/// | any other name under `lab.test` | NXDOMAIN (with the zone's SOA) |
/// | `refused.test` and below, any other name | REFUSED |
///
/// `lab.test` is an `auth-zone` read from a zone file rather than `local-data`: unbound answers a
/// CNAME in `local-data` with the CNAME alone (its manual sends CNAME support to auth or stub
/// zones), and a DoH client is meant to see the chain followed to the address. `refused.test` is
/// `local-zone: refuse`, and so is `.`: unbound never asks the root servers for anything.
///
/// The process runs under `setpriv --pdeathsig KILL`, spawned by a thread that waits for `stop()`:
/// when the test process ends without stopping it (a crash, a killed run) that thread ends with it
/// and the kernel kills unbound, so no daemon outlives the tests.
public final class UnboundDoH: Sendable {
    /// The service's host name: SNI and the certificate's name (it resolves to nothing: clients
    /// connect to 127.0.0.1 by `--resolve` or `service_ips`).
    public static let serviceHost = "doh.lab.test"
    /// The address unbound listens on.
    public static let listenAddress = "127.0.0.1"

    /// The names unbound answers, and what with.
    public enum Names {
        /// A 127.0.0.2, AAAA ::1.
        public static let api = "api.lab.test"
        /// CNAME api.lab.test.
        public static let alias = "alias.lab.test"
        /// A name under lab.test that has no record: NXDOMAIN.
        public static let missing = "nowhere.lab.test"
        /// A name in a zone unbound refuses: REFUSED.
        public static let refused = "www.refused.test"
        /// `api`'s IPv4 address.
        public static let apiIPv4 = LabAddress.primary
        /// `api`'s IPv6 address.
        public static let apiIPv6 = LabAddress.ipv6
    }

    /// The TCP port of the DoH service on 127.0.0.1.
    public let port: Int
    /// PEM file of the CA that issued the service's certificate.
    public let caFile: String
    /// That CA certificate, PEM.
    public let caPEM: String
    /// The temporary folder with the configuration, zone, certificates and log (removed by `stop`).
    public let directory: URL
    /// How long from spawning unbound to its port answering.
    public let startUpTime: Duration

    private let process: UnboundProcess

    /// Plain DNS over UDP: the same port number as the DoH service's TCP port.
    public var dnsPort: Int { port }

    /// The RFC 8484 endpoint, by name (connect to `listenAddress`).
    public var url: String { "https://\(Self.serviceHost):\(port)/dns-query" }

    private init(port: Int, caFile: String, caPEM: String, directory: URL, startUpTime: Duration, process: UnboundProcess) {
        self.port = port
        self.caFile = caFile
        self.caPEM = caPEM
        self.directory = directory
        self.startUpTime = startUpTime
        self.process = process
    }

    /// What unbound logged so far, with anything it wrote to stdout or stderr.
    public func log() -> String { process.log() }

    /// How many queries for `name` (no trailing dot) of `type` ("A", "AAAA") unbound has logged.
    public func queriesLogged(_ name: String, type: String) -> Int {
        process.log().components(separatedBy: " \(name). \(type) IN").count - 1
    }

    /// Writes a PEM bundle of this server's CA and `pem` (e.g. the lab's `caPEM`), for a client
    /// that talks to both; returns its path (inside `directory`).
    public func trustBundle(adding pem: String) throws -> String {
        let path = directory.appendingPathComponent("trust-bundle.pem").path
        try (caPEM + (caPEM.hasSuffix("\n") ? "" : "\n") + pem).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts unbound and waits until it serves, for at most `deadline`.
    /// - Throws: `UnboundDoHError` saying why, with unbound's log.
    public static func start(deadline: Duration = .seconds(10)) async throws -> UnboundDoH {
        let executable = try UnboundProcess.findUnbound()
        let directory = try LabPlans.temporaryDirectory()
        do {
            let ca = try await Certificates.make(in: directory)
            try zoneFile.write(to: directory.appendingPathComponent("lab.test.zone"), atomically: true, encoding: .utf8)
            // A port taken between our probe and unbound's bind fails its start: try another.
            var attempt = 1
            while true {
                let port = try freePort()
                let configuration = directory.appendingPathComponent("unbound.conf")
                try self.configuration(port: port, directory: directory).write(
                    to: configuration, atomically: true, encoding: .utf8)
                let logFile = directory.appendingPathComponent("unbound.log").path
                try? FileManager.default.removeItem(atPath: logFile)  // unbound appends to it
                let clock = ContinuousClock()
                let started = clock.now
                let process = try await UnboundProcess.spawn(
                    executable, configuration: configuration.path, logFile: logFile)
                switch await process.waitUntilServing(port: port, deadline: deadline) {
                case .serving:
                    return UnboundDoH(
                        port: port, caFile: ca.path, caPEM: ca.pem, directory: directory,
                        startUpTime: clock.now - started, process: process)
                case .exited(let termination):
                    _ = await process.stop(deadline: .seconds(1))  // lets its spawning thread end
                    let log = process.log()
                    guard attempt < 3, log.contains("ddress already in use") else {
                        throw UnboundDoHError(
                            "unbound exited (\(termination)) before it served on 127.0.0.1:\(port)", log: log)
                    }
                    attempt += 1
                case .timedOut:
                    _ = await process.stop(deadline: .seconds(5))
                    throw UnboundDoHError(
                        "unbound did not serve on 127.0.0.1:\(port) within \(deadline); it was stopped", log: process.log())
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops unbound (SIGTERM, then SIGKILL after `deadline`), waits for its end, removes `directory`.
    /// - Throws: when unbound needed SIGKILL or did not end even then.
    public func stop(deadline: Duration = .seconds(5)) async throws {
        let outcome = await process.stop(deadline: deadline)
        let log = process.log()
        try? FileManager.default.removeItem(at: directory)
        switch outcome {
        case .stopped: return
        case .killed: throw UnboundDoHError("unbound did not stop within \(deadline) of SIGTERM and was killed", log: log)
        case .stillRunning: throw UnboundDoHError("unbound (pid \(process.pid)) did not end even after SIGKILL", log: log)
        }
    }

    /// Runs `body` with a started server and stops it afterwards, whether `body` threw or not.
    public static func with<T>(deadline: Duration = .seconds(10), _ body: (UnboundDoH) async throws -> T) async throws -> T {
        let server = try await start(deadline: deadline)
        let value: T
        do {
            value = try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
        return value
    }

    // MARK: - Configuration

    static let zoneFile = """
        $ORIGIN lab.test.
        $TTL 300
        @     IN SOA  ns.lab.test. hostmaster.lab.test. 1 3600 600 86400 300
        @     IN NS   ns.lab.test.
        api   IN A    \(Names.apiIPv4)
        api   IN AAAA \(Names.apiIPv6)
        alias IN CNAME api

        """

    static func configuration(port: Int, directory: URL) -> String {
        let folder = directory.path
        return """
            server:
              verbosity: 1
              # "info: 127.0.0.1 api.lab.test. A IN" for every query: what a test reads to know
              # that an answer came from here.
              log-queries: yes
              interface: \(listenAddress)@\(port)
              # And on IPv6 loopback, plain DNS only in effect (resolver checks ask a server by either family).
              interface: ::1@\(port)
              https-port: \(port)
              http-endpoint: "/dns-query"
              tls-service-key: "\(folder)/doh.key"
              tls-service-pem: "\(folder)/doh.pem"
              # Plain DNS over UDP on the same port number: what resolver checks ask.
              do-udp: yes
              do-ip6: yes
              num-threads: 1
              chroot: ""
              username: ""
              directory: "\(folder)"
              pidfile: "\(folder)/unbound.pid"
              logfile: "\(folder)/unbound.log"
              use-syslog: no
              do-daemonize: no
              access-control: 127.0.0.0/8 allow
              access-control: ::1 allow
              do-not-query-localhost: yes
              module-config: "iterator"
              # Only local answers: nothing is ever asked of the root servers.
              local-zone: "." refuse
              local-zone: "refused.test." refuse
              # unbound's built-in "test." zone answers NXDOMAIN for everything under it; lab.test
              # is left to the auth-zone below.
              local-zone: "test." nodefault
              local-zone: "lab.test." transparent
            auth-zone:
              name: "lab.test."
              zonefile: "\(folder)/lab.test.zone"
              for-downstream: yes
              for-upstream: no
            remote-control:
              control-enable: no

            """
    }

    /// A TCP port free on 127.0.0.1 right now (the kernel's pick).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw UnboundDoHError("socket(): \(String(cString: strerror(errno)))", log: "") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(listenAddress)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw UnboundDoHError("could not pick a free port: \(String(cString: strerror(errno)))", log: "") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether 127.0.0.1:`port` accepts a TCP connection.
    public static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(listenAddress)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Why the unbound harness failed, with what unbound logged.
public struct UnboundDoHError: Error, CustomStringConvertible {
    public var message: String
    public var log: String

    init(_ message: String, log: String) {
        self.message = message
        self.log = log
    }

    public var description: String {
        log.isEmpty ? message : "\(message); unbound's log:\n\(log)"
    }
}

// MARK: - Certificates

/// A CA and a leaf for `doh.lab.test`, P-256, made with the `openssl` command in the server's folder.
private enum Certificates {
    static func make(in directory: URL) async throws -> (path: String, pem: String) {
        let openssl = try UnboundProcess.find("openssl", hint: "make deps installs it (Debian package openssl)")
        let folder = directory.path
        let leafExtensions = """
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:\(UnboundDoH.serviceHost), IP:\(UnboundDoH.listenAddress)
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid

            """
        try leafExtensions.write(toFile: "\(folder)/doh.ext", atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30",
                "-subj", "/O=runner lab/CN=runner lab unbound CA", "-keyout", "\(folder)/ca.key", "-out", "\(folder)/ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-subj", "/O=runner lab/CN=\(UnboundDoH.serviceHost)", "-keyout", "\(folder)/doh.key", "-out", "\(folder)/doh.csr",
            ],
            [
                "x509", "-req", "-in", "\(folder)/doh.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
                "-set_serial", "0x\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16))",
                "-days", "30", "-extfile", "\(folder)/doh.ext", "-out", "\(folder)/doh.pem",
            ],
        ]
        for arguments in steps {
            let output = try await offPool {
                try ChildProcess.run(URL(fileURLWithPath: openssl), arguments, deadline: .seconds(30))
            }
            guard output.status == 0 else {
                throw UnboundDoHError(
                    "openssl \(arguments[0]) failed (status \(output.status)): "
                        + String(decoding: output.stderr, as: UTF8.self), log: "")
            }
        }
        let pem = try String(contentsOfFile: "\(folder)/ca.pem", encoding: .utf8)
        return ("\(folder)/ca.pem", pem)
    }
}

// MARK: - The process

/// unbound as a child: spawned by a thread that lives until `stop`, output drained, log read.
private final class UnboundProcess: @unchecked Sendable {
    enum Readiness {
        case serving
        case exited(ChildProcess.Termination)
        case timedOut
    }

    enum StopOutcome {
        case stopped, killed, stillRunning
    }

    let child: RunningChild
    let logFile: String
    /// Signalled by `stop` to let the spawning thread end (the parent-death signal watches it).
    private let release: DispatchSemaphore
    private let output: ChildOutput

    var pid: pid_t { child.pid }

    private init(child: RunningChild, logFile: String, release: DispatchSemaphore) {
        self.child = child
        self.logFile = logFile
        self.release = release
        output = ChildOutput(child.stdout, child.stderr)
    }

    static func find(_ name: String, hint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw UnboundDoHError("\(name) is not installed: \(hint)", log: "")
    }

    static func findUnbound() throws -> String {
        try find("unbound", hint: "make deps installs it (Debian package unbound)")
    }

    /// The command line: `setpriv --pdeathsig KILL` when there is setpriv (util-linux), and the
    /// dynamic loader in front of unbound when AppArmor enforces Debian's profile for
    /// /usr/sbin/unbound, which would deny it the files in our temporary folder (a profile
    /// attaches to the path executed; the loader is not confined by it).
    static func commandLine(_ unbound: String, configuration: String) -> (URL, [String]) {
        var command = [unbound, "-d", "-c", configuration]
        if apparmorConfinesUnbound(), let loader = dynamicLoader() { command.insert(loader, at: 0) }
        if let setpriv = try? find("setpriv", hint: "") {
            return (URL(fileURLWithPath: setpriv), ["--pdeathsig", "KILL", "--"] + command)
        }
        return (URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    }

    static func apparmorConfinesUnbound() -> Bool {
        guard let enabled = try? String(contentsOfFile: "/sys/module/apparmor/parameters/enabled", encoding: .utf8),
            enabled.hasPrefix("Y")
        else { return false }
        if let profiles = try? String(contentsOfFile: "/sys/kernel/security/apparmor/profiles", encoding: .utf8) {
            return profiles.split(separator: "\n").contains { $0.contains("unbound") && $0.contains("(enforce)") }
        }
        return FileManager.default.fileExists(atPath: "/etc/apparmor.d/usr.sbin.unbound")
    }

    static func dynamicLoader() -> String? {
        #if arch(x86_64)
        let candidates = ["/lib64/ld-linux-x86-64.so.2"]
        #elseif arch(arm64)
        let candidates = ["/lib/ld-linux-aarch64.so.1"]
        #else
        let candidates: [String] = []
        #endif
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Spawns unbound from a thread of its own that then waits for `stop`: the thread the kernel
    /// watches for `--pdeathsig` is the one that spawned, so it must outlive the server.
    static func spawn(_ unbound: String, configuration: String, logFile: String) async throws -> UnboundProcess {
        let (executable, arguments) = commandLine(unbound, configuration: configuration)
        let release = DispatchSemaphore(value: 0)
        let child: RunningChild = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let result = Result { try RunningChild(executable, arguments) }
                continuation.resume(with: result)
                if case .success = result { release.wait() }
            }
            thread.name = "unbound parent"
            thread.start()
        }
        return UnboundProcess(child: child, logFile: logFile, release: release)
    }

    func log() -> String {
        let file = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        let printed = output.text()
        return printed.isEmpty ? file : file + (file.isEmpty || file.hasSuffix("\n") ? "" : "\n") + printed
    }

    /// Polls every 20 ms until unbound has logged that it serves and its port accepts a connection.
    func waitUntilServing(port: Int, deadline: Duration) async -> Readiness {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            if !child.isRunning, let termination = child.wait(deadline: .seconds(5)) { return .exited(termination) }
            let file = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if file.contains("start of service"), UnboundDoH.accepts(port: port) { return .serving }
            if clock.now >= end { return .timedOut }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, a wait of at most `deadline`, then SIGKILL and another; lets the spawning thread go.
    func stop(deadline: Duration) async -> StopOutcome {
        let child = self.child
        let outcome: StopOutcome = (try? await offPool {
            child.send(SIGTERM)
            if child.wait(deadline: deadline) != nil { return StopOutcome.stopped }
            child.send(SIGKILL)
            return child.wait(deadline: .seconds(5)) != nil ? .killed : .stillRunning
        }) ?? .stillRunning
        release.signal()
        output.wait(deadline: .seconds(2))
        return outcome
    }
}
