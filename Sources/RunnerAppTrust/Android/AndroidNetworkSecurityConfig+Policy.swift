import Foundation

extension AndroidNetworkSecurityConfig {
    /// The policy Android applies to `host` (AOSP `getConfigForHostname`): the exact domain,
    /// else the longest `includeSubdomains` one, else base-config, else the platform default;
    /// each value inherited child → parent → base-config → default by `targetSDK`.
    ///
    /// A pin-set is expired from midnight UTC starting its expiration day (the device's zone is
    /// not known here).
    public func policy(for host: String, targetSDK: Int, now: Date) -> AppTrustPolicy {
        let matched = matchedConfigIndex(for: HostName.normalized(host))
        var lineage: [AndroidDomainConfig] = []
        var next = matched
        while let index = next, lineage.count <= domainConfigs.count {
            lineage.append(domainConfigs[index])
            next = domainConfigs[index].parentIndex
        }
        if let baseConfig { lineage.append(baseConfig) }

        let cleartext = lineage.lazy.compactMap(\.cleartextTrafficPermitted).first ?? (targetSDK < 28)
        let defaultAnchors = [AndroidTrustAnchor(source: "system", overridePins: false)]
            + (targetSDK <= 23 ? [AndroidTrustAnchor(source: "user", overridePins: false)] : [])
        let inheritedAnchors = lineage.lazy.compactMap(\.trustAnchors).first ?? defaultAnchors
        // debug-overrides' anchors are added to every config (AOSP `addDebugAnchorsIfNeeded`).
        let anchors = AndroidTrustAnchor.merged(inheritedAnchors + (debugAnchors ?? []))
        let pinSet = lineage.lazy.compactMap(\.pinSet).first

        let source = lineage.first.map { AppTrustSource(file: path, line: $0.line) }
        let pins = pinSet?.pins ?? []
        let overriding = anchors.filter(\.overridePins).map(\.source)
        let whyNot: AppTrustPinsNotEnforced?
        if pins.isEmpty {
            whyNot = .noPins
        } else if let expiresAt = pinSet?.expiresAt, now >= expiresAt {
            whyNot = .expired
        } else if !anchors.isEmpty, overriding.count == anchors.count {
            whyNot = .overridePins
        } else {
            whyNot = nil
        }
        return AppTrustPolicy(
            platform: .android, source: source, cleartextPermitted: cleartext, anchors: anchors.map(\.source),
            anchorsOverridingPins: overriding, pins: pins, pinsExpire: pinSet?.expiration,
            pinsEnforced: whyNot == nil, whyNotEnforced: whyNot)
    }

    /// The index of the domain-config that governs `host` (already normalized), nil for base-config.
    private func matchedConfigIndex(for host: String) -> Int? {
        var best: (index: Int, length: Int)?
        for (index, config) in domainConfigs.enumerated() {
            for domain in config.domains {
                if domain.name == host { return index }
                if domain.coversSubdomain(host), domain.name.utf8.count > best?.length ?? -1 {
                    best = (index, domain.name.utf8.count)
                }
            }
        }
        return best?.index
    }
}
