import Foundation

/// What the runner process holds, for `--stats`: resource hygiene is checked from outside.
enum ProcessResources {
    /// Open sockets and files: what a run could leak (connections, body files, reports); nil
    /// where /proc is not mounted.
    ///
    /// The runtime's own event descriptors (libdispatch's epoll, eventfd, signalfd and a timerfd
    /// it makes on first use), pipes and devices are left out: they come and go on their own
    /// schedule, so counting them made "at start" differ from "at end" by one now and then.
    static func openSocketsAndFiles() -> Int? {
        let directory = "/proc/self/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return entries.reduce(0) { count, entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)") else {
                return count  // closed meanwhile (the directory listing's own descriptor, say)
            }
            let isSocket = target.hasPrefix("socket:")
            let isFile = target.hasPrefix("/") && !target.hasPrefix("/dev/") && !target.hasPrefix("/proc/")
            return isSocket || isFile ? count + 1 : count
        }
    }

    /// Peak resident set size so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024
    }
}
