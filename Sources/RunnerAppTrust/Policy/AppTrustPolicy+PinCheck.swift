extension AppTrustPolicy {
    /// Judges a verified chain (leaf first) against the pins, as the platform's pin check does.
    ///
    /// `anchor` is the trust anchor that verified the chain, when known: an Android anchor with
    /// `overridePins` skips the check.
    public func check(chain: [AppTrustChainCertificate], anchor: String? = nil) -> AppTrustPinCheck {
        if !pinsEnforced { return .notChecked(whyNotEnforced ?? .noPins) }
        if let anchor, anchorsOverridingPins.contains(anchor) { return .notChecked(.overridePins) }
        if !leafPins.isEmpty || !caPins.isEmpty {
            // NSPinnedDomains: each kind declared must match in its place.
            let leafMatch = chain.first { $0.isLeaf && leafPins.contains($0.spkiSHA256) }
            let caMatch = chain.first { !$0.isLeaf && caPins.contains($0.spkiSHA256) }
            if !leafPins.isEmpty, leafMatch == nil { return .notMatched }
            if !caPins.isEmpty, caMatch == nil { return .notMatched }
            return .matched(pin: (leafMatch ?? caMatch)?.spkiSHA256 ?? "")
        }
        for certificate in chain {
            if pins.contains(certificate.spkiSHA256) { return .matched(pin: certificate.spkiSHA256) }
            if let sha1 = certificate.spkiSHA1, sha1Pins.contains(sha1) { return .matched(pin: "sha1/" + sha1) }
        }
        return .notMatched
    }

    /// Whether the pins hold only the leaf's key: they match the chain's leaf and nothing else,
    /// and no spare key is pinned. A new leaf key then fails every connection (`no-backup-pin`).
    public func pinsOnlyTheLeaf(chain: [AppTrustChainCertificate]) -> Bool {
        let declared = Set(pins).union(leafPins).union(caPins)
        guard !declared.isEmpty, sha1Pins.isEmpty else { return false }
        let leafKeys = Set(chain.filter(\.isLeaf).map(\.spkiSHA256))
        let otherKeys = Set(chain.filter { !$0.isLeaf }.map(\.spkiSHA256))
        return declared.isSubset(of: leafKeys) && declared.isDisjoint(with: otherKeys)
    }
}
