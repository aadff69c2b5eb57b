import NIOConcurrencyHelpers

/// Counts HTTPDNS lookups per format and name, from any event loop, so tests can prove which
/// resolution path a client took (and how often it asked).
final class HTTPDNSLedger: Sendable {
    private let counts = NIOLockedValueBox([LabDNS.Format: [String: Int]]())

    /// Records one lookup of each of `hosts` (repeats count again).
    func record(_ format: LabDNS.Format, hosts: [String]) {
        counts.withLockedValue { counts in
            for host in hosts {
                counts[format, default: [:]][LabDNS.canonicalName(host), default: 0] += 1
            }
        }
    }

    /// Lookups of `host` in `format`, or in every format when `format` is nil.
    func lookups(of host: String, format: LabDNS.Format?) -> Int {
        let name = LabDNS.canonicalName(host)
        return counts.withLockedValue { counts in
            let formats = format.map { [$0] } ?? LabDNS.Format.allCases
            return formats.reduce(0) { $0 + (counts[$1]?[name] ?? 0) }
        }
    }
}
