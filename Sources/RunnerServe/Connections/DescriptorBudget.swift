#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve`'s file descriptors: the soft limit raised to the hard one at start (as Go programs
/// do), and how many HTTP connections fit beside what the cycles keep for themselves, so that a
/// crowd of clients cannot make a cycle fail for want of a descriptor.
public struct DescriptorBudget: Equatable, Sendable {
    /// The soft `RLIMIT_NOFILE` that `serve` runs under.
    public var softLimit: UInt64
    /// The hard one.
    public var hardLimit: UInt64
    /// Why raising the soft limit failed (an `errno`, e.g. EPERM under a seccomp filter that
    /// forbids setrlimit), nil when it worked or was not needed.
    public var raiseFailure: Int32?

    /// Descriptors kept for the cycles: 4 per transfer in flight (its sockets, libcurl's
    /// connection cache, the resolver's) and 128 for the reports and the process's own files.
    public static func reserve(jobs: Int) -> Int { 4 * jobs + 128 }

    /// The connection cap that fits: `requested`, or fewer when the soft limit less the reserve
    /// is smaller (at least 1: the scraper must still get in).
    public static func connectionCap(requested: Int, softLimit: UInt64, reserve: Int) -> Int {
        let room = softLimit > UInt64(max(reserve, 0)) ? softLimit - UInt64(max(reserve, 0)) : 0
        return max(1, min(requested, Int(clamping: room)))
    }

    /// Raises the soft limit to the hard one, where it can (capped at OPEN_MAX on Darwin, whose
    /// setrlimit refuses more); keeps the soft limit and says why when it cannot.
    public static func raised() -> DescriptorBudget {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else {
            // Cannot be read: assume the common default, so that the cap is computed cautiously.
            return DescriptorBudget(softLimit: 1024, hardLimit: 1024, raiseFailure: errno)
        }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        guard limit.rlim_cur < wanted else {
            return DescriptorBudget(softLimit: UInt64(limit.rlim_cur), hardLimit: UInt64(limit.rlim_max), raiseFailure: nil)
        }
        var raised = limit
        raised.rlim_cur = wanted
        guard setrlimit(resource, &raised) == 0 else {
            return DescriptorBudget(softLimit: UInt64(limit.rlim_cur), hardLimit: UInt64(limit.rlim_max), raiseFailure: errno)
        }
        return DescriptorBudget(softLimit: UInt64(wanted), hardLimit: UInt64(limit.rlim_max), raiseFailure: nil)
    }

    /// The line said on standard error when `cap` is below `requested`, nil when it is not.
    public func warning(requested: Int, cap: Int, jobs: Int) -> String? {
        guard cap < requested else { return nil }
        var line = "serve: warning: --max-connections \(requested) lowered to \(cap): the descriptor limit is \(softLimit)"
        if let raiseFailure {
            line += " (raising it to the hard limit \(hardLimit) failed: \(String(cString: strerror(raiseFailure))))"
        }
        line += " and \(Self.reserve(jobs: jobs)) are kept for the cycles (4 × --jobs \(jobs) + 128);"
        line += " raise it (LimitNOFILE=, ulimit -n) to allow more"
        return line
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
