extension AppTrustPolicy {
    /// ATS's requirements without an exception: TLS 1.2+, forward secrecy, RSA 2048 / EC 256
    /// keys (and SHA-256+ signatures), no `http://`.
    static let atsDefault = AppTrustPolicy(
        platform: .ios, source: nil, cleartextPermitted: false, anchors: ["system"], pins: [], pinsEnforced: false,
        whyNotEnforced: .noPins, tlsMinimum: "1.2", forwardSecrecy: true, minimumRSAKeyBits: 2048, minimumECKeyBits: 256,
        minimumSignatureHash: "SHA-256")

    /// Where ATS does not apply (arbitrary loads, local networking, an IP before iOS 17, loopback).
    static let atsNotApplied = AppTrustPolicy(
        platform: .ios, source: nil, cleartextPermitted: true, anchors: ["system"], pins: [], pinsEnforced: false,
        whyNotEnforced: .noPins)

    /// The same rules with every pin removed.
    func withoutPins() -> AppTrustPolicy {
        var policy = self
        policy.pins = []
        policy.leafPins = []
        policy.caPins = []
        policy.sha1Pins = []
        policy.pinsExpire = nil
        policy.pinsEnforced = false
        policy.whyNotEnforced = .noPins
        return policy
    }
}
