import Foundation

extension IOSTrustSettings {
    /// The policy with TrustKit's pins for `host` in place of NSPinnedDomains' (ATS's values as
    /// `policy(for:iOSVersion:)` gives them); nil when the app has no `TSKConfiguration`.
    ///
    /// TrustKit matches the exact domain (case-sensitive), else the longest parent with
    /// `TSKIncludeSubdomains`; a domain past its `TSKExpirationDate` (midnight UTC) is not enforced.
    public func trustKitPolicy(for host: String, iOSVersion: Int, now: Date) -> AppTrustPolicy? {
        guard let trustKitDomains else { return nil }
        let name = HostName.normalized(host)
        var policy = atsPolicy(name: name, address: IPLiteral(name), iOSVersion: iOSVersion)
        let matched = trustKitDomains.first { $0.name == host }
            ?? trustKitDomains.filter { $0.includeSubdomains && host.hasSuffix("." + $0.name) }
            .max { $0.name.utf8.count < $1.name.utf8.count }
        guard let domain = matched else { return policy }
        policy.source = AppTrustSource(file: path, line: domain.line)
        policy.pins = domain.pins
        policy.pinsExpire = domain.expiration
        if let expiresAt = domain.expiresAt, now >= expiresAt {
            policy.whyNotEnforced = .expired
        } else if !domain.enforcePinning {
            policy.whyNotEnforced = .reportOnly
        } else {
            policy.whyNotEnforced = nil
        }
        policy.pinsEnforced = policy.whyNotEnforced == nil
        return policy
    }
}
