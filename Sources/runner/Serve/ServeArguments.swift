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

/// `--label NAME=VALUE`: a constant label on every series.
struct ConstantLabel: ExpressibleByArgument, Sendable, Equatable {
    let name: String
    let value: String

    /// The labels the series carry themselves, which a constant label may not replace.
    static let reserved: Set<String> = ["plan", "scenario", "strategy", "ip", "map", "host", "status", "phase", "version", "job", "instance"]

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        name = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
    }

    /// Why the name cannot be a Prometheus label of this runner's, or nil.
    var problem: String? {
        let bytes = Array(name.utf8)
        let valid = !bytes.isEmpty && bytes.enumerated().allSatisfy { index, byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): index > 0
            default: false
            }
        }
        if !valid { return "--label takes NAME=VALUE with NAME a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*), got '\(name)'" }
        if name.hasPrefix("__") { return "--label '\(name)': names starting with '__' are Prometheus' own" }
        if Self.reserved.contains(name) { return "--label '\(name)': the runner's series already carry that label" }
        return nil
    }
}
