/// `domains:`: named maps, each a static IP list or an HTTPDNS service.
extension PlanDecoder {
    func decodeDomainMaps(_ entry: FieldEntry<TopLevelKey>) -> [DomainMapSpec] {
        guard let pairs = namedEntries(of: entry.value, site: Site(key: "domains", Context(.topLevel))) else { return [] }

        // Names first: fallbacks and scenarios may name a map declared later.
        for pair in pairs where pair.key != systemDomainMapName {
            domainMapNames.append(pair.key)
            domainMapNameSet.insert(pair.key)
        }

        var maps: [DomainMapSpec] = []
        var fallbackMarks: [String: YAMLMark] = [:]
        for pair in pairs {
            let name = pair.key
            let context = Context(.domainMap(name))
            if name == systemDomainMapName {
                report(
                    at: pair.keyMark,
                    "'system' is the implicit domain map (the machine's resolver) and cannot be declared; choose another name"
                )
                continue
            }
            guard let fields = fields(
                of: pair.value, site: Site(subject: "domain map '\(name)'", Context(.domains)), context: context,
                ownerMark: pair.keyMark, keys: Keys.domainMap)
            else { continue }
            if let staticEntry = fields[.static], let httpdnsEntry = fields[.httpdns] {
                let second = staticEntry.keyMark < httpdnsEntry.keyMark ? httpdnsEntry : staticEntry
                report(at: second.keyMark, "domain map '\(name)' has both 'static' and 'httpdns'; give exactly one")
                continue
            }
            let location = location(pair.keyMark)
            if let staticEntry = fields[.static] {
                if let entries = decodeStaticList(staticEntry, context: context.part(.static)) {
                    maps.append(DomainMapSpec(name: name, source: .staticList(entries), location: location))
                }
            } else if let httpdnsEntry = fields[.httpdns] {
                if let (spec, fallbackMark, rankMark) = decodeHTTPDNS(httpdnsEntry, mapName: name, context: context.part(.httpdns)) {
                    maps.append(DomainMapSpec(name: name, source: .httpdns(spec), location: location))
                    if let fallbackMark { fallbackMarks[name] = fallbackMark }
                    if let rankMark { rankMarks[name] = rankMark }
                }
            } else {
                report(at: pair.keyMark, "domain map '\(name)' needs exactly one of 'static' or 'httpdns'")
            }
        }
        checkFallbackCycles(maps, marks: fallbackMarks)
        mapsReachingSystemResolver = Plan.mapsReachingSystemResolver(maps)
        return maps
    }

    private func decodeStaticList(_ entry: FieldEntry<DomainMapKey>, context: Context) -> [DomainMapSpec.StaticEntry]? {
        guard let hosts = namedEntries(of: entry.value, site: Site(key: "static", Context(context.owner)))
        else { return nil }
        var result: [DomainMapSpec.StaticEntry] = []
        var seen: [String: YAMLMark] = [:]
        var failed = false
        for host in hosts {
            let name = host.key.lowercased()
            guard Self.isHostName(name) else {
                report(at: host.keyMark, "'\(host.key)' is not a host name \(context)")
                failed = true
                continue
            }
            if let first = seen[name] {
                report(at: host.keyMark, "duplicate host '\(name)' \(context) (first at \(first.text))")
                failed = true
                continue
            }
            seen[name] = host.keyMark
            func site() -> Site { Site(kind: "host", name: name, context) }
            guard let items = items(host.value, expected: "a list of IP addresses", for: site()) else {
                failed = true
                continue
            }
            guard !items.isEmpty else {
                report(at: host.value.mark, "expected at least one IP address for \(site()), got an empty list")
                failed = true
                continue
            }
            var addresses: [IPAddress] = []
            for item in items {
                guard let text = string(item, for: Site(kind: "an IP address of host", name: name, context)) else {
                    failed = true
                    continue
                }
                guard let address = IPAddress(text.value) else {
                    report(at: text.mark, "\(text.quoted) is not an IP address (host '\(name)' \(context))")
                    failed = true
                    continue
                }
                addresses.append(address)
            }
            result.append(DomainMapSpec.StaticEntry(host: name, addresses: addresses))
        }
        return failed ? nil : result
    }

    /// Fallback chains must end: report each cycle once, at the fallback that closes it.
    private func checkFallbackCycles(_ maps: [DomainMapSpec], marks: [String: YAMLMark]) {
        var next: [String: String] = [:]
        for map in maps {
            if case .httpdns(let spec) = map.source, case .map(let target) = spec.fallback { next[map.name] = target }
        }
        var state: [String: Int] = [:]  // 1: on the current path, 2: done
        for map in maps where state[map.name] == nil {
            var path: [String] = []
            var current: String? = map.name
            while let name = current, state[name] == nil {
                state[name] = 1
                path.append(name)
                current = next[name]
            }
            if let name = current, state[name] == 1, let start = path.firstIndex(of: name) {
                let cycle = path[start...] + [name]
                let mark = marks[name] ?? YAMLMark(line: 1, column: 1)
                report(at: mark, "fallback cycle between domain maps: \(cycle.map { "'\($0)'" }.joined(separator: " → "))")
            }
            for name in path { state[name] = 2 }
        }
    }

    /// Letters, digits, `-`, `_` and dots: what a DNS name (or an IP literal used as a host) holds.
    static func isHostName(_ name: String) -> Bool { HostName.isValid(name) }
}

extension String {
    /// `replacingOccurrences` without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
