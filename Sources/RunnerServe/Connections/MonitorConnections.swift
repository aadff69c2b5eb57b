/// The HTTP server's open connections, oldest first, kept under `--max-connections`: a new
/// connection beyond the cap closes the oldest one that is not being answered (idle, or with an
/// incomplete request), so that clients holding half-requests cannot lock a scraper out.
/// Touched on the server's one event loop only.
final class MonitorConnections {
    private let cap: Int
    private var open: [MonitorConnectionHandler] = []

    init(cap: Int) {
        self.cap = cap
    }

    var count: Int { open.count }

    /// Counts `connection` in; returns the one to close for it, if the cap is passed (taken off
    /// the count already, so that it is not chosen twice while it closes). That is `connection`
    /// itself when every other one is being answered.
    func opened(_ connection: MonitorConnectionHandler) -> MonitorConnectionHandler? {
        open.append(connection)
        guard let index = Self.victim(among: open.map(\.isEvictable), cap: cap) else { return nil }
        return open.remove(at: index)
    }

    /// Counts `connection` out (idempotent: an evicted one was counted out already).
    func closed(_ connection: MonitorConnectionHandler) {
        open.removeAll { $0 === connection }
    }

    /// Which of the open connections (oldest first, whether each may be closed) to close so
    /// that at most `cap` stay open; nil when they fit. The newest is always evictable (it is
    /// waiting for its first request), so an index is found whenever the cap is passed.
    static func victim(among evictable: [Bool], cap: Int) -> Int? {
        guard evictable.count > cap else { return nil }
        return evictable.firstIndex(of: true) ?? evictable.indices.last
    }
}
