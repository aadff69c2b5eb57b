import Testing

@testable import RunnerPlan

/// `PlanKey` is the one spelling of the keys; each section's key enum names its keys as plan
/// keys (the compiler holds that side). These hold the other: no plan key belongs to no section,
/// and each section finds its keys by their interned text.
@Suite("Plan keys and section keys")
struct PlanKeyTests {
    @Test("every plan key is a key of some section")
    func everyPlanKeyHasASection() {
        let used = Set(PlanSection.allCases.flatMap(\.keys.keys))
        let unused = PlanKey.allCases.filter { !used.contains($0) }.map(\.rawValue)
        #expect(unused.isEmpty, "plan keys no section accepts: \(unused)")
    }

    @Test("a section names each plan key at most once", arguments: PlanSection.allCases)
    func distinctKeys(section: PlanSection) {
        let keys = section.keys.keys
        #expect(Set(keys).count == keys.count, "\(section.rawValue): \(keys.map(\.rawValue))")
    }

    @Test("a section recognises exactly its keys by their interned text", arguments: PlanSection.allCases)
    func textIndices(section: PlanSection) {
        let keySet = section.keys
        for (offset, key) in PlanKey.allCases.enumerated() {
            #expect(keySet.contains(textIndex: Int32(offset + 1)) == keySet.contains(key), "\(section.rawValue): \(key.rawValue)")
        }
    }

    @Test("each section key maps back from its text index to itself")
    func sectionKeysByTextIndex() {
        Self.roundTrip(Keys.top)
        Self.roundTrip(Keys.defaults)
        Self.roundTrip(Keys.scenario)
        Self.roundTrip(Keys.request)
        Self.roundTrip(Keys.expect)
        Self.roundTrip(Keys.headerMatcher)
        Self.roundTrip(Keys.valueMatcher)
        Self.roundTrip(Keys.body)
        Self.roundTrip(Keys.certificate)
        Self.roundTrip(Keys.time)
        Self.roundTrip(Keys.domainMap)
        Self.roundTrip(Keys.httpdns)
        Self.roundTrip(Keys.httpdnsAuth)
        Self.roundTrip(Keys.httpdnsAnswer)
        Self.roundTrip(Keys.httpdnsSDK)
        Self.roundTrip(Keys.sdkRank)
        Self.roundTrip(Keys.sdkCache)
        Self.roundTrip(Keys.capture)
        Self.roundTrip(Keys.dns)
        Self.roundTrip(Keys.tls)
        Self.roundTrip(Keys.tlsExpect)
    }

    /// Each key of the section comes back from its plan key's text index; other texts give nil.
    static func roundTrip<Key: SectionKey>(_ keys: SectionKeys<Key>) {
        for (offset, planKey) in PlanKey.allCases.enumerated() {
            let found = keys.key(textIndex: Int32(offset + 1))
            #expect(found?.planKey == (keys.contains(planKey) ? planKey : nil), "\(keys.section.rawValue): \(planKey.rawValue)")
            if let found { #expect(found.rawValue == planKey.rawValue) }
        }
        #expect(keys.key(textIndex: 0) == nil)
        #expect(keys.key(textIndex: Int32(PlanKey.allCases.count + 1)) == nil)
    }
}
