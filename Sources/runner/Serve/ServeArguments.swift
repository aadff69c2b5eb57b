import ArgumentParser
import RunnerPlan
import RunnerServe

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
struct ListenOption: ExpressibleByArgument, Sendable {
    let address: ListenAddress

    init(_ address: ListenAddress) {
        self.address = address
    }

    init?(argument: String) {
        guard let address = ListenAddress(notation: argument) else { return nil }
        self.address = address
    }

    var defaultValueDescription: String { address.description }
}
