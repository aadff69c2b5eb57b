extension OkHttpPins {
    /// The pins `CertificatePinner.check` applies to `host`: those of every matching pattern.
    /// An IP host matches only a pattern written as that address. The policy speaks for pins
    /// only: cleartext and anchors are the Network Security Config's.
    public func policy(for host: String) -> AppTrustPolicy {
        let name = HostName.normalized(host)
        let address = IPLiteral(name)
        let matched = patterns.filter { pattern in
            if let address { return IPLiteral(pattern.pattern) == address }
            return pattern.matches(name)
        }
        let sha256 = matched.flatMap(\.sha256Pins)
        let sha1 = matched.flatMap(\.sha1Pins)
        let pinned = !sha256.isEmpty || !sha1.isEmpty
        return AppTrustPolicy(
            platform: .okhttp, source: matched.first.map { AppTrustSource(file: $0.pattern, line: $0.index + 1) },
            cleartextPermitted: true, anchors: ["system"], pins: sha256, sha1Pins: sha1, pinsEnforced: pinned,
            whyNotEnforced: pinned ? nil : .noPins)
    }
}
