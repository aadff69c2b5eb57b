extension Plan {
    /// The maps whose answers may come from the scenario's resolver (`resolver:`): `system` itself, and each
    /// HTTPDNS map whose fallback chain ends in `fallback: system`.
    public static func mapsReachingSystemResolver(_ maps: [DomainMapSpec]) -> Set<String> {
        var fallback: [String: HTTPDNSSpec.Fallback] = [:]
        for map in maps {
            if case .httpdns(let spec) = map.source { fallback[map.name] = spec.fallback }
        }
        var reaching: Set<String> = [systemDomainMapName]
        for map in maps {
            var name = map.name
            var seen: Set<String> = []
            // A cycle is reported elsewhere; here it just ends the walk.
            while seen.insert(name).inserted, let next = fallback[name] {
                switch next {
                case .none: break
                case .system: reaching.insert(map.name)
                case .map(let target): name = target; continue
                }
                break
            }
        }
        return reaching
    }
}
