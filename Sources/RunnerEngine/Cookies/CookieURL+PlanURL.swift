import RunnerPlan

extension CookieURL {
    /// The jar is keyed by the original host, never by the IP a hop connected to.
    init(_ url: PlanURL) {
        let path = url.pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        self.init(secure: url.scheme == .https, host: url.host, path: path.isEmpty ? "/" : path)
    }
}
