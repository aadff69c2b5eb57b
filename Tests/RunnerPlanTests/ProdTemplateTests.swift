import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// plans/prod.yaml, the template the README names, as the decoder reads it: it shows what a
/// production plan needs (signed and encrypted HTTPDNS maps behind a built-in list, the strategy
/// each app ships, a login, certificate expiry, the gate and monitor tags), and its secrets come
/// from the environment. `runner check` on it is `ProdPlanCheckTests`' part.
@Suite("The production template")
struct ProdTemplateTests {
    static let secrets = [
        "ALI_HTTPDNS_SECRET": "ali-signing-secret-7f3a", "DNSPOD_AES_KEY": "dnspod-key-16byt",
        "VOLC_HTTPDNS_SECRET": "volc-signing-secret-91c2", "PROBE_PASSWORD": "probe-password-c4d1",
    ]

    static func plan() throws -> Plan {
        try PlanLoader.load(path: Repository.root.appendingPathComponent("plans/prod.yaml").path, environment: secrets)
    }

    @Test("its HTTPDNS maps sign or encrypt as the services require, and fall back to the built-in list")
    func mapsAreSignedAndFallBackToTheBuiltInList() throws {
        let plan = try Self.plan()
        let staticMaps = Set(plan.domainMaps.compactMap { map -> String? in
            if case .staticList = map.source { return map.name }
            return nil
        })
        #expect(!staticMaps.isEmpty)
        var schemes: Set<HTTPDNSAuth.Scheme> = []
        var formats: Set<HTTPDNSSpec.Format.Name> = []
        for map in plan.domainMaps {
            guard case .httpdns(let spec) = map.source else { continue }
            formats.insert(spec.format.name)
            if let auth = spec.auth { schemes.insert(auth.scheme) }
            guard case .map(let fallback) = spec.fallback else {
                Issue.record("map '\(map.name)' has no fallback to a built-in list")
                continue
            }
            #expect(staticMaps.contains(fallback), "map '\(map.name)' falls back to '\(fallback)', not a static map")
        }
        #expect(schemes.isSuperset(of: [.alibabaSign, .volcengineSign]), "\(schemes)")
        #expect(!schemes.isDisjoint(with: [.dnspodDES, .dnspodAES]), "\(schemes)")
        #expect(formats.isSuperset(of: [.alibaba, .dnspod, .json, .doh]), "\(formats)")
    }

    @Test("its scenarios are tagged gate or monitor, log in, check certificates and use every strategy")
    func scenariosCoverWhatAGateAndAMonitorNeed() throws {
        let plan = try Self.plan()
        let tags = Set(plan.scenarios.flatMap(\.tags))
        #expect(tags == ["gate", "monitor"])
        for scenario in plan.scenarios {
            #expect(!scenario.tags.isEmpty, "'\(scenario.name)' has no tag: neither the gate nor the monitor runs it")
        }
        #expect(plan.scenarios.contains { $0.request.method == "POST" && $0.request.body != nil && $0.tags.contains("gate") })
        #expect(plan.scenarios.contains { ($0.expect.certificate?.minDaysLeft ?? 0) >= 14 && $0.tags.contains("monitor") })
        let strategies = Set(plan.scenarios.flatMap(\.strategies))
        #expect(strategies.isSuperset(of: [.sniResolve, .trustOverride, .headerOnly, .system]), "\(strategies)")
        let mapsUsed = Set(plan.scenarios.map(\.domainMap))
        for map in plan.domainMaps {
            guard case .httpdns = map.source else { continue }
            #expect(mapsUsed.contains(map.name), "map '\(map.name)' is declared but no scenario uses it")
        }
    }

    @Test("its secrets are ${secret:…} references, read from the environment and masked")
    func secretsComeFromTheEnvironment() throws {
        let plan = try Self.plan()
        #expect(Set(plan.secrets.map(\.value)) == Set(Self.secrets.values))
        let text = try String(contentsOf: Repository.root.appendingPathComponent("plans/prod.yaml"), encoding: .utf8)
        for name in Self.secrets.keys {
            #expect(text.contains("${secret:\(name)}"), "\(name)")
        }
    }
}
