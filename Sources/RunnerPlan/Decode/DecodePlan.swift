import RunnerVocabulary

/// What every scenario is decoded against: the top level of a plan but its scenarios.
struct TopLevel {
    var name: String
    var domainMaps: [DomainMapSpec]
    var clients: [ClientPopulation]
    var defaults: SettingsLayer
    /// The top-level keys, `scenarios` among them.
    var fields: Fields<TopLevelKey>
}

/// The top level of a plan: version, name, vars, then domain maps, defaults and scenarios.
extension PlanDecoder {
    /// - Parameter root: from a document parsed with `knownTexts: PlanKey.texts`, which is how
    ///   keys are recognised.
    func decodePlan(_ root: YAMLNode, variables commandLine: [String: String]) -> Plan? {
        guard let topLevel = decodeTopLevel(root, variables: commandLine) else { return nil }
        var scenarios: [Scenario] = []
        if let entry = required(.scenarios, in: topLevel.fields) {
            scenarios = decodeScenarios(entry, defaults: topLevel.defaults)
        }
        return plan(topLevel, scenarios: scenarios)
    }

    /// The plan of `topLevel` and `scenarios`, with the secrets this decoder has recorded.
    func plan(_ topLevel: TopLevel, scenarios: [Scenario]) -> Plan {
        checkFlows(scenarios)
        checkRankedHosts(topLevel.domainMaps, scenarios: scenarios)
        return Plan(
            path: file, name: topLevel.name, domainMaps: topLevel.domainMaps, scenarios: scenarios, secrets: secrets,
            clients: topLevel.clients, apps: apps)
    }

    /// Everything at the top level but the scenarios, which are left in `fields`.
    func decodeTopLevel(_ root: YAMLNode, variables commandLine: [String: String]) -> TopLevel? {
        assert(root.tree.read { $0.scalars.dropFirst().starts(with: PlanKey.texts) }, "parse plans with knownTexts: PlanKey.texts")
        let context = Context(.topLevel)
        guard case .mapping = root.content else {
            report(at: root.mark, "expected a mapping with 'version' and 'scenarios' at top level, got \(describe(root))")
            return nil
        }
        guard let fields = fields(of: root, site: Site(subject: "the plan", context), context: context, keys: Keys.top)
        else { return nil }

        // Variables first: every other value may use them.
        decodeVariables(fields[.vars], commandLine: commandLine)

        if let entry = required(.version, in: fields),
           let version = integer(entry.value, for: Site(key: "version", context)), version != 1 {
            report(at: entry.value.mark, "unsupported plan version \(version); this runner reads version 1")
        }

        var name = Self.defaultName(for: file)
        if let entry = fields[.name], let text = string(entry.value, for: Site(key: "name", context)) {
            name = text.value
        }

        apps = fields[.apps].map { decodeApps($0) } ?? []
        // Clients before the maps that ask as them.
        let clients = fields[.clients].map { decodeClients($0) } ?? []
        clientPopulations = clients
        let domainMaps = fields[.domains].map { decodeDomainMaps($0) } ?? []
        staticMapNames = Set(domainMaps.compactMap { map in
            if case .staticList = map.source { return map.name }
            return nil
        })
        let decoded = Plan(path: file, name: name, domainMaps: domainMaps, scenarios: [], secrets: [], clients: clients)
        for map in decoded.mapsAskingAsClients { clientsAskedBy[map.name] = decoded.clients(askedBy: map.name) }
        mapsAskingAsThisMachine.formUnion(domainMaps.map(\.name).filter { clientsAskedBy[$0] == nil })

        var defaults = SettingsLayer()
        if let entry = fields[.defaults], let section = self.fields(
            of: entry.value, site: Site(key: "defaults", Context(.topLevel)), context: Context(.defaults),
            ownerMark: entry.keyMark, keys: Keys.defaults)
        {
            decodeSettings(section, setting: { $0 }, into: &defaults)
        }
        defaults.resolvedTLS = defaults.tls.map { clientTLS($0, scenario: "defaults") } ?? ClientTLS()

        return TopLevel(name: name, domainMaps: domainMaps, clients: clients, defaults: defaults, fields: fields)
    }

    /// The file name without its directory and extension: `plans/prod.yaml` → `prod`.
    static func defaultName(for path: String) -> String {
        var base = Substring(path)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        return String(base)
    }

    /// `vars:` then `--var` over it. Vars may use `${env:…}`/`${secret:…}`, not each other.
    private func decodeVariables(_ entry: FieldEntry<TopLevelKey>?, commandLine: [String: String]) {
        var resolved: [String: ResolvedVariable] = [:]
        if let entry, let pairs = namedEntries(of: entry.value, site: Site(key: "vars", Context(.topLevel))) {
            let context = Context(.vars)
            for pair in pairs {
                guard Self.isVariableName(pair.key) else {
                    report(
                        at: pair.keyMark,
                        "invalid variable name '\(pair.key)' \(context); use letters, digits, '_', '-' and '.'")
                    continue
                }
                // `--var` replaces it: its own references need not resolve.
                if commandLine[pair.key] != nil { continue }
                guard case .scalar(let raw, _) = pair.value.content else {
                    report(
                        at: pair.value.mark,
                        "expected a scalar for variable '\(pair.key)' \(context), got \(pair.value.kindDescription)")
                    failedVariables.insert(pair.key)
                    continue
                }
                if let value = substitute(raw, at: pair.value.mark, allowVariables: false) {
                    resolved[pair.key] = value
                } else {
                    failedVariables.insert(pair.key)
                }
            }
        }
        for (name, value) in commandLine {
            resolved[name] = ResolvedVariable(value: value, shown: value)
        }
        variables = resolved
    }

    static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }
}
