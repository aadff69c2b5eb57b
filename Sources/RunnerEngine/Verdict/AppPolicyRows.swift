import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// `runner app show`: the rules each app applies to each host its scenarios request, under
/// each strategy they run, without sending a request: the trust twin of `runner resolve`.
public enum AppPolicyRows {
    /// What narrows the rows (`--app`, `--host`, `--strategy`).
    public struct Selection: Sendable {
        public var app: String?
        public var host: String?
        public var strategy: StrategyKind?

        public init(app: String? = nil, host: String? = nil, strategy: StrategyKind? = nil) {
            self.app = app
            self.host = host
            self.strategy = strategy
        }
    }

    /// Whether a scenario of `plans` runs under a strategy whose stacks key rules on the address:
    /// only then are its maps asked for addresses.
    public static func needsAddresses(_ plans: [Plan], selection: Selection) -> Bool {
        plans.contains { plan in
            scenarios(of: plan, selection: selection).contains { scenario in
                strategies(of: scenario, selection: selection).contains { $0 == .headerOnly || $0 == .trustOverride }
            }
        }
    }

    /// The rows, plan by plan, in the order the scenarios first request each (app, host,
    /// strategy); `answers` are `runner resolve`'s, for the addresses.
    public static func rows(_ plans: [Plan], answers: [MapAnswer], selection: Selection, now: Date) -> [AppPolicyRow] {
        var rows: [AppPolicyRow] = []
        var seen: Set<[String]> = []
        for plan in plans {
            for scenario in scenarios(of: plan, selection: selection) {
                let url = scenario.request.url
                let apps = scenario.apps.filter { selection.app == nil || $0.name == selection.app }
                for strategy in strategies(of: scenario, selection: selection) {
                    let keyedOnAddress = strategy == .headerOnly || strategy == .trustOverride
                    var addresses: [String?] = [nil]
                    if keyedOnAddress {
                        let answered = answers.filter { $0.plan == plan.path && $0.map == scenario.domainMap && $0.host == url.host }
                            .flatMap(\.addresses)
                        addresses = IPAddress(url.host) != nil ? [url.host] : unique(answered).map { $0 }
                    }
                    for address in addresses {
                        for app in apps {
                            guard seen.insert([plan.path, app.name, url.host, url.scheme.rawValue, strategy.rawValue, address ?? ""]).inserted
                            else { continue }
                            let policies = AppPolicyVerdict.policies(apps: [app], url: url, strategy: strategy, ip: address, now: now)
                            rows += policies.map { policy in
                                AppPolicyRow(
                                    plan: plan.path, host: url.host, strategy: strategy,
                                    address: policy.keyedOn == .address ? address : nil, policy: policy)
                            }
                        }
                    }
                }
            }
        }
        return rows
    }

    private static func scenarios(of plan: Plan, selection: Selection) -> [Scenario] {
        plan.scenarios.filter { scenario in
            !scenario.apps.isEmpty && (selection.host == nil || scenario.request.url.host == selection.host)
                && (selection.app == nil || scenario.apps.contains { $0.name == selection.app })
        }
    }

    private static func strategies(of scenario: Scenario, selection: Selection) -> [StrategyKind] {
        let written = scenario.strategies.map { $0.concrete(for: scenario.request.url.scheme) }
        guard let chosen = selection.strategy?.concrete(for: scenario.request.url.scheme) else { return unique(written) }
        return chosen.canCarry(scenario.request.url.scheme) ? [chosen] : []
    }

    private static func unique<Element: Hashable>(_ values: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return values.filter { seen.insert($0).inserted }
    }
}
