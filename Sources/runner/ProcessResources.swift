import Foundation

/// What the runner process holds, for `--stats`: resource hygiene is checked from outside.
enum ProcessResources {
    /// Open file descriptors (entries of /proc/self/fd, minus the one reading it); nil where
    /// /proc is not mounted.
    static func openFileDescriptors() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.count - 1
    }

    /// Peak resident set size so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024
    }
}
