import Foundation

extension IOSTrustSettings {
    /// What URLSession applies to `host` on `iOSVersion`: App Transport Security's requirements
    /// and exceptions, and NSPinnedDomains' pins (TrustKit's are `trustKitPolicy`).
    ///
    /// An IP host: below iOS 17 ATS does not apply to it; from 17 an exception keyed by that
    /// address or a CIDR range holding it does (the longest prefix), never a name's. Loopback and
    /// link-local addresses are always exempt. `NSAllowsLocalNetworking` is applied to
    /// unqualified and `.local` names only.
    public func policy(for host: String, iOSVersion: Int) -> AppTrustPolicy {
        let name = HostName.normalized(host)
        let address = IPLiteral(name)
        var policy = atsPolicy(name: name, address: address, iOSVersion: iOSVersion)

        // NSPinnedDomains: the exact entry and its parent's (one label up, with
        // NSIncludesSubdomains) combine. An address matches only an entry written as it.
        guard iOSVersion >= 14 else { return policy.withoutPins() }
        var matched: [IOSPinnedDomain] = pinnedDomains.filter { $0.name == name }
        if address == nil, let parent = HostName.parent(of: name) {
            matched += pinnedDomains.filter { $0.name == parent && $0.includesSubdomains }
        }
        policy.leafPins = Self.unique(matched.flatMap(\.leafPins))
        policy.caPins = Self.unique(matched.flatMap(\.caPins))
        policy.pins = Self.unique(policy.leafPins + policy.caPins)
        policy.pinsEnforced = !policy.pins.isEmpty
        policy.whyNotEnforced = policy.pins.isEmpty ? .noPins : nil
        if policy.source == nil, let entry = matched.first { policy.source = AppTrustSource(file: path, line: entry.line) }
        return policy
    }

    /// ATS alone for `name` (normalized); its pins empty.
    func atsPolicy(name: String, address: IPLiteral?, iOSVersion: Int) -> AppTrustPolicy {
        if let address {
            if address.isLoopbackOrLinkLocal || iOSVersion < 17 { return .atsNotApplied }
            if let exception = exceptionCovering(address) { return policy(of: exception) }
        } else {
            if let exception = exceptionCovering(name) { return policy(of: exception) }
            if allowsLocalNetworking, !name.contains(".") || name.hasSuffix(".local") { return .atsNotApplied }
        }
        return allowsArbitraryLoads ? .atsNotApplied : .atsDefault
    }

    /// The exact exception, else the nearest parent's with NSIncludesSubdomains (any depth).
    private func exceptionCovering(_ name: String) -> ATSException? {
        let named = exceptionDomains.filter { $0.addressRange == nil }
        if let exact = named.first(where: { $0.key == name }) { return exact }
        var candidate = HostName.parent(of: name)
        while let parent = candidate {
            if let covering = named.first(where: { $0.key == parent && $0.includesSubdomains }) { return covering }
            candidate = HostName.parent(of: parent)
        }
        return nil
    }

    /// The address or CIDR exception with the longest prefix holding `address`.
    private func exceptionCovering(_ address: IPLiteral) -> ATSException? {
        var best: (exception: ATSException, length: Int)?
        for exception in exceptionDomains {
            guard let range = exception.addressRange, address.isIn(range.network, prefixLength: range.prefixLength),
                  range.prefixLength > best?.length ?? -1
            else { continue }
            best = (exception, range.prefixLength)
        }
        return best?.exception
    }

    private func policy(of exception: ATSException) -> AppTrustPolicy {
        var policy = AppTrustPolicy.atsDefault
        policy.source = AppTrustSource(file: path, line: exception.line)
        policy.cleartextPermitted = exception.allowsInsecureHTTPLoads
        policy.tlsMinimum = exception.minimumTLSVersion
        policy.forwardSecrecy = exception.requiresForwardSecrecy
        return policy
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
