/// A plan made from captures, ready to be written: its scenarios in capture order, the
/// addresses the app used, the secrets the team must export and what was done, for the summary.
public struct PlanDraft: Sendable, Equatable {
    public var scenarios: [DraftScenario]
    /// Each host's recorded addresses, in the order first seen (the static map's entries).
    public var addresses: [HostAddresses]
    /// The map the scenarios use: the captured static map's name, or the one `--map` named.
    public var mapName: String
    /// Whether `addresses` is written as a static map (not when `--map` names another map).
    public var writesStaticMap: Bool
    public var secrets: [DraftSecret]
    /// What the summary says, line by line (no secret value in any).
    public var notes: [String]
    /// Entries read, over all captures.
    public var entriesRead: Int
    /// Body files the plan refers to.
    public var bodyFiles: [String] {
        scenarios.compactMap { scenario in
            if case .file(let name, _)? = scenario.body { name } else { nil }
        }
    }
}

/// A host and the addresses its requests went to.
public struct HostAddresses: Sendable, Equatable {
    public var host: String
    public var addresses: [String]
}

/// A `${secret:NAME}` the plan uses, and where (its value stays with the drafter's caller).
public struct DraftSecret: Sendable, Equatable {
    public var name: String
    public var uses: [String]
    /// How to give the value when it is not plain text (`as the URL carries it, percent-encoded`).
    public var form: String?
    /// The recorded value: never written, but the caller's tests check it is nowhere.
    public var recordedValue: String
}
