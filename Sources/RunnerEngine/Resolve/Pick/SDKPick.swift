import RunnerPlan

/// The address(es) an app uses from one HTTPDNS answer, as its SDK hands them out: the first
/// address, after the SDK reordered the families it ranks by TCP connect time when the app
/// configured ranking. Pure: the connect times are measured elsewhere (`ConnectProbe`) and given.
///
/// The SDKs' sources: Tencent's `getAddrByName` returns at most one address per family
/// (`"v4;v6"`; iOS `WGGetHostByName` `[v4, v6]`); Alibaba's legacy `getIpByHostAsync` returns
/// `ips[0]`, the first IPv4 address (IPv6 only when there is no IPv4); Volcengine hands out the
/// answer's first.
public struct SDKPick: Sendable, Equatable {
    /// The answer in the order the SDK keeps it: each ranked family reordered by connect time in
    /// the places that family held in the answer, everything else as the service gave it.
    public let order: [IPAddress]
    /// What the SDK hands the app: one address, or (Tencent) at most one per family, IPv4 first;
    /// empty for an empty answer.
    public let picked: [PickedAddress]

    /// `answer`: the addresses in the service's order. `connects`: the ranking's connect to each
    /// address on the ranking's port, from an earlier lookup (the SDKs apply a ranking to the
    /// next lookup); nil or incomplete: the ranked families keep the service's order. Ignored
    /// when the profile does not rank.
    public init(answer: [IPAddress], profile: SDKProfile, connects: [IPAddress: ConnectOutcome]? = nil) {
        let ranking = profile.kind.canRank ? profile.ranking : nil
        var order = answer
        var firstReasons: [IPAddress.Family: PickReason] = [:]
        for family in [IPAddress.Family.v4, .v6] {
            let slots = answer.indices.filter { answer[$0].family == family }
            guard !slots.isEmpty else { continue }
            let arranged = Self.arrange(slots.map { answer[$0] }, family: family, ranking: ranking, connects: connects)
            for (slot, address) in zip(slots, arranged.addresses) { order[slot] = address }
            firstReasons[family] = arranged.firstReason
        }
        self.order = order
        picked = Self.handOut(order, kind: profile.kind, rankingOn: ranking != nil, firstReasons: firstReasons)
    }

    /// What the SDK hands out when it fell back to `source` (the system resolver) because
    /// HTTPDNS gave nothing: that answer's first (per family, for Tencent), never ranked (Alibaba
    /// iOS gives local answers a TTL of their own and ranks none; the others rank HTTPDNS answers).
    public init(fallback answer: [IPAddress], source: String, profile: SDKProfile) {
        order = answer
        picked = Self.handOut(answer, kind: profile.kind, rankingOn: false, firstReasons: [:]).map { picked in
            let family: IPAddress.Family? = if case .firstOfFamilyInAnswer(let family) = picked.reason { family } else { nil }
            return PickedAddress(address: picked.address, reason: .fallback(source: source, family: family))
        }
    }

    /// The addresses the SDK hands out from `order`, each with its reason: ranking's reason for a
    /// ranked family, otherwise where it stood in the answer.
    private static func handOut(
        _ order: [IPAddress], kind: SDKProfile.Kind, rankingOn: Bool, firstReasons: [IPAddress.Family: PickReason]
    ) -> [PickedAddress] {
        func firstOf(_ family: IPAddress.Family) -> PickedAddress? {
            guard let address = order.first(where: { $0.family == family }) else { return nil }
            let standing: PickReason = address == order.first ? .firstInAnswer : .firstOfFamilyInAnswer(family)
            return PickedAddress(address: address, reason: rankingOn ? firstReasons[family] ?? standing : standing)
        }
        switch kind {
        case .tencentAndroid, .tencentIOS:
            // Every family is reported per family, even when its address is the answer's first.
            return [IPAddress.Family.v4, .v6].compactMap { family in
                firstOf(family).map { picked in
                    guard picked.reason == .firstInAnswer else { return picked }
                    return PickedAddress(address: picked.address, reason: .firstOfFamilyInAnswer(family))
                }
            }
        case .alibabaAndroid, .alibabaIOS:
            return [firstOf(.v4) ?? firstOf(.v6)].compactMap { $0 }
        case .volcengine:
            return order.first.map { [PickedAddress(address: $0, reason: .firstInAnswer)] } ?? []
        }
    }
}
