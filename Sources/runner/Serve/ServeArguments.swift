import ArgumentParser
import RunnerPlan
import RunnerServe

/// A duration on the command line, in the plan's notation (`30s`, `500ms`, `5m`): `--every`,
/// `--request-timeout`, `--idle-timeout`.
struct DurationArgument: ExpressibleByArgument, Sendable {
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
