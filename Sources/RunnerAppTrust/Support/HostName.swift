/// The host as the platforms look it up: lower-cased (ASCII, like Java's US locale), one
/// trailing dot dropped.
enum HostName {
    static func normalized(_ host: String) -> String {
        var lowered = lowercased(host)
        if lowered.hasSuffix(".") { lowered.removeLast() }
        // An IPv6 literal is looked up as OkHttp prints it: without brackets.
        if lowered.hasPrefix("["), lowered.hasSuffix("]") { lowered = String(lowered.dropFirst().dropLast()) }
        return lowered
    }

    /// Lower-cased without a locale's special cases (Java's `toLowerCase(Locale.US)`).
    static func lowercased(_ text: String) -> String { text.lowercased() }

    /// `host` without its first label (`a.b.c` → `b.c`), nil for a single label.
    static func parent(of host: String) -> String? {
        guard let dot = host.firstIndex(of: ".") else { return nil }
        return String(host[host.index(after: dot)...])
    }
}
