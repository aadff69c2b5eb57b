import ArgumentParser
import RunnerPlan

/// `--every`: the time between cycle starts, in the plan's notation (`30s`, `5m`).
struct CycleInterval: ExpressibleByArgument, Sendable {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = Duration(planNotation: argument) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { duration.planNotation }
}

/// `--request-timeout` and `--idle-timeout`: how long a connection may take, in the plan's
/// notation (`10s`, `500ms`, `1m`).
struct ConnectionTimeout: ExpressibleByArgument, Sendable {
    let duration: Duration

    /// The longest accepted: a connection held longer would serve no scraper.
    static let maximum = Duration.seconds(3600)

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = Duration(planNotation: argument) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { duration.planNotation }
}

/// `--listen HOST:PORT` (`[IPv6]:PORT` for an IPv6 address; port 0: any free port, said at start).
struct ListenAddress: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let host: String
    let port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
              (0...65535).contains(port)
        else { return nil }
        var host = String(argument[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("[") && !host.contains("]") else { return nil }
        self.host = host
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    var defaultValueDescription: String { description }
}
