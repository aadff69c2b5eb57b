/// `clients:` at the top level — named user populations — and a map's `clients:`, the ones it
/// is asked as (plan-format.md, "Client populations").
extension PlanDecoder {
    /// The populations, in the order written; each with exactly one of `ip` and `subnet`, and
    /// every one with the same label names.
    func decodeClients(_ entry: FieldEntry<TopLevelKey>) -> [ClientPopulation] {
        guard let pairs = namedEntries(of: entry.value, site: Site(key: "clients", Context(.topLevel))) else { return [] }
        var clients: [ClientPopulation] = []
        // The first client's label names, which every other must have too.
        var labelNames: (client: String, names: [String])?
        for pair in pairs {
            let name = pair.key
            // A client's name follows a variable's rule: letters, digits, '.', '-' and '_'.
            guard Self.isVariableName(name) else {
                report(at: pair.keyMark, "'\(name)' is not a client name in clients (letters, digits, '.', '-' and '_')")
                continue
            }
            let context = Context(.client(name))
            guard let fields = fields(
                of: pair.value, site: Site(subject: "client '\(name)'", Context(.clients)), context: context,
                ownerMark: pair.keyMark, keys: Keys.client)
            else { continue }
            var ipEntry, subnetEntry, labelsEntry: FieldEntry<ClientKey>?
            for entry in fields.entries {
                switch entry.name {
                case .ip: ipEntry = entry
                case .subnet: subnetEntry = entry
                case .labels: labelsEntry = entry
                }
            }
            let place: (address: IPAddress, subnet: IPSubnet)?
            switch (ipEntry, subnetEntry) {
            case (let ipEntry?, nil): place = clientAddress(ipEntry, context: context)
            case (nil, let subnetEntry?): place = clientSubnet(subnetEntry, context: context)
            case (let ipEntry?, let subnetEntry?):
                let second = ipEntry.keyMark < subnetEntry.keyMark ? subnetEntry : ipEntry
                report(at: second.keyMark, "client '\(name)' has both 'ip' and 'subnet'; give exactly one")
                place = nil
            case (nil, nil):
                report(at: pair.keyMark, "client '\(name)' needs exactly one of 'ip' (an address) or 'subnet' (a CIDR)")
                place = nil
            }
            let labels = labelsEntry.map { clientLabels($0, context: context) } ?? []
            guard let place, let labels else { continue }
            let names = labels.map(\.name)
            if let first = labelNames {
                if names != first.names {
                    let mark = labelsEntry?.keyMark ?? pair.keyMark
                    report(
                        at: mark,
                        "client '\(name)' has labels \(Self.labelList(names)); every client needs the same label names, "
                            + "as client '\(first.client)' has \(Self.labelList(first.names))")
                    continue
                }
            } else {
                labelNames = (name, names)
            }
            clients.append(ClientPopulation(name: name, address: place.address, subnet: place.subnet, labels: labels))
        }
        return clients
    }

    /// `ip`: the address; the /24 or /56 around it stands for it where a subnet is needed.
    private func clientAddress(_ entry: FieldEntry<ClientKey>, context: Context) -> (IPAddress, IPSubnet)? {
        guard let text = string(entry.value, for: Site(key: "ip", context)) else { return nil }
        guard let address = IPAddress(text.value) else {
            report(at: text.mark, "\(text.quoted) is not an IP address ('ip' \(context)); a range goes in 'subnet', e.g. 120.196.0.0/16")
            return nil
        }
        return (address, IPSubnet(covering: address, prefixLength: ClientPopulation.defaultPrefixLength(of: address.family)))
    }

    /// `subnet`: a CIDR whose address is its network's; its first address stands for it.
    private func clientSubnet(_ entry: FieldEntry<ClientKey>, context: Context) -> (IPAddress, IPSubnet)? {
        guard let text = string(entry.value, for: Site(key: "subnet", context)) else { return nil }
        switch IPSubnet.parse(text.value) {
        case .success(let subnet):
            return (subnet.network, subnet)
        case .failure(.hostBitsSet(let network)):
            report(at: text.mark, "\(text.quoted) has bits set past its prefix ('subnet' \(context)); did you mean '\(network)'?")
        case .failure(.malformed):
            report(at: text.mark, "\(text.quoted) is not a subnet ('subnet' \(context)); expected ADDRESS/LENGTH, e.g. 123.112.0.0/24")
        }
        return nil
    }

    /// `labels`: names `[a-z_][a-z0-9_]*`, none reserved, each with a string value; sorted by name.
    private func clientLabels(_ entry: FieldEntry<ClientKey>, context: Context) -> [ClientPopulation.Label]? {
        guard let pairs = namedEntries(of: entry.value, site: Site(key: "labels", context)) else { return nil }
        var labels: [ClientPopulation.Label] = []
        var failed = false
        for pair in pairs {
            guard Self.isLabelName(pair.key) else {
                report(at: pair.keyMark, "'\(pair.key)' is not a label name ('labels' \(context)); use lower-case letters, digits and '_', not starting with a digit")
                failed = true
                continue
            }
            guard !ClientPopulation.reservedLabelNames.contains(pair.key) else {
                report(
                    at: pair.keyMark,
                    "label '\(pair.key)' \(context) is reserved (the reports' own labels: "
                        + "\(ClientPopulation.reservedLabelNames.sorted().joined(separator: ", "))); choose another name")
                failed = true
                continue
            }
            guard let value = string(pair.value, for: Site(kind: "label", name: pair.key, context)) else {
                failed = true
                continue
            }
            labels.append(ClientPopulation.Label(name: pair.key, value: value.value))
        }
        return failed ? nil : labels.sorted { $0.name < $1.name }
    }

    /// A map's `clients`: `all`, or a non-empty list of the plan's client names, each once.
    func decodeClientSelection(_ entry: FieldEntry<HTTPDNSKey>, context: Context) -> ClientSelection? {
        func site() -> Site { Site(key: "clients", context) }
        guard !clientNames.isEmpty else {
            report(at: entry.keyMark, "'clients' \(context) names populations to ask as, but the plan names none: add 'clients:' at the top level")
            return nil
        }
        if case .scalar = entry.value.content {
            guard let text = string(entry.value, for: site()) else { return nil }
            guard text.value == "all" else {
                report(at: text.mark, "expected 'all' or a list of client names for \(site()), got \(text.quoted)")
                return nil
            }
            return .all
        }
        guard let items = items(entry.value, expected: "'all' or a list of client names", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one client name for \(site()), got an empty list (leave 'clients' out to ask as this machine)")
            return nil
        }
        var names: [String] = []
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            guard clientNames.contains(text.value) else {
                let hint = Suggestion.closest(to: text.value, among: clientNames).map { "; did you mean '\($0)'?" }
                    ?? "; the plan's clients are \(clientNames.map { "'\($0)'" }.joined(separator: ", "))"
                report(at: text.mark, "unknown client \(text.quoted) \(context)\(hint)")
                failed = true
                continue
            }
            guard !names.contains(text.value) else {
                report(at: text.mark, "client \(text.quoted) is listed twice in \(site())")
                failed = true
                continue
            }
            names.append(text.value)
        }
        return failed ? nil : .named(names)
    }

    /// `[a-z_][a-z0-9_]*`: a Prometheus label name, lower case.
    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    private static func labelList(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

/// `expect.edges`: where each client population may be sent (plan-format.md, "Client populations").
extension PlanDecoder {
    /// The rules, each `{clients: [names] | {label: value, …}, within: [CIDR | address | static map]}`.
    func decodeEdgeRules(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> [EdgeRule] {
        let context = scenario.part(.expectEdges)
        func site() -> Site { Site(key: "edges", scenario.part(.expect)) }
        guard !clientPopulations.isEmpty else {
            report(at: entry.keyMark, "'edges' \(scenario) checks where client populations are sent, but the plan names none: add 'clients:' at the top level")
            return []
        }
        guard let items = items(entry.value, expected: "a list of rules {clients: …, within: […]}", for: site()) else { return [] }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one rule for \(site()), got an empty list")
            return []
        }
        var rules: [EdgeRule] = []
        for item in items {
            guard let fields = fields(of: item, site: Site(subject: "a rule of 'edges'", context), context: context, keys: Keys.edgeRule)
            else { continue }
            guard let clientsEntry = required(.clients, in: fields), let withinEntry = required(.within, in: fields) else { continue }
            guard let selector = edgeSelector(clientsEntry, context: context), let within = edgeBounds(withinEntry, context: context)
            else { continue }
            rules.append(EdgeRule(clients: selector, within: within, location: location(item.mark)))
        }
        return rules
    }

    /// `clients` of a rule: a list of the plan's client names, or a mapping of labels that at
    /// least one client has.
    private func edgeSelector(_ entry: FieldEntry<EdgeRuleKey>, context: Context) -> EdgeRule.Selector? {
        func site() -> Site { Site(key: "clients", context) }
        if case .mapping = entry.value.content {
            guard let pairs = namedEntries(of: entry.value, site: site()) else { return nil }
            let labelNames = clientPopulations.first?.labels.map(\.name) ?? []
            var labels: [ClientPopulation.Label] = []
            for pair in pairs {
                guard labelNames.contains(pair.key) else {
                    let known = labelNames.isEmpty ? "the plan's clients have no labels" : "the clients' labels are \(labelNames.joined(separator: ", "))"
                    let hint = Suggestion.closest(to: pair.key, among: labelNames).map { "did you mean '\($0)'? " } ?? ""
                    report(at: pair.keyMark, "unknown label '\(pair.key)' in \(site()); \(hint)\(known)")
                    return nil
                }
                guard let value = string(pair.value, for: Site(kind: "label", name: pair.key, context)) else { return nil }
                labels.append(ClientPopulation.Label(name: pair.key, value: value.value))
            }
            guard !labels.isEmpty else {
                report(at: entry.value.mark, "expected at least one label for \(site()), got an empty mapping")
                return nil
            }
            let selector = EdgeRule.Selector.labels(labels)
            let probe = EdgeRule(clients: selector, within: [], location: location(entry.value.mark))
            guard clientPopulations.contains(where: { probe.selects($0.identity) }) else {
                let shown = labels.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
                report(at: entry.value.mark, "no client has \(shown) (\(site())): the rule would check nobody")
                return nil
            }
            return selector
        }
        guard let items = items(entry.value, expected: "a list of client names or a mapping of labels", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one client name for \(site()), got an empty list")
            return nil
        }
        var names: [String] = []
        for item in items {
            guard let text = string(item, for: site()) else { return nil }
            guard clientNames.contains(text.value) else {
                let hint = Suggestion.closest(to: text.value, among: clientNames).map { "; did you mean '\($0)'?" } ?? ""
                report(at: text.mark, "unknown client \(text.quoted) in \(site())\(hint)")
                return nil
            }
            if !names.contains(text.value) { names.append(text.value) }
        }
        return .names(names)
    }

    /// `within` of a rule: CIDRs, addresses and names of static maps.
    private func edgeBounds(_ entry: FieldEntry<EdgeRuleKey>, context: Context) -> [EdgeRule.Bound]? {
        func site() -> Site { Site(key: "within", context) }
        guard let items = items(entry.value, expected: "a list of CIDRs, addresses or static maps", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one CIDR, address or static map for \(site()), got an empty list")
            return nil
        }
        var bounds: [EdgeRule.Bound] = []
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            if text.value.contains("/") {
                switch IPSubnet.parse(text.value) {
                case .success(let subnet): bounds.append(.subnet(subnet))
                case .failure(.hostBitsSet(let network)):
                    report(at: text.mark, "\(text.quoted) has bits set past its prefix (\(site())); did you mean '\(network)'?")
                    failed = true
                case .failure(.malformed):
                    report(at: text.mark, "\(text.quoted) is not a CIDR (\(site())); expected ADDRESS/LENGTH, e.g. 120.196.0.0/16")
                    failed = true
                }
            } else if let address = IPAddress(text.value) {
                bounds.append(.address(address))
            } else if staticMapNames.contains(text.value) {
                bounds.append(.map(text.value))
            } else if domainMapNameSet.contains(text.value) {
                report(at: text.mark, "map \(text.quoted) in \(site()) is not a static map: 'within' bounds addresses by a list the plan keeps")
                failed = true
            } else {
                let hint = Suggestion.closest(to: text.value, among: staticMapNames.sorted()).map { "; did you mean '\($0)'?" }
                    ?? "; expected a CIDR, an address or a static map's name"
                report(at: text.mark, "\(text.quoted) in \(site()) is neither a CIDR, an address nor a domain map\(hint)")
                failed = true
            }
        }
        return failed ? nil : bounds
    }
}
