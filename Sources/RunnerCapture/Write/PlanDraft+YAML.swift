import RunnerPlan

/// What a plan made from a capture takes from the command line and from the team's own plan.
public struct DraftPlanSettings: Sendable {
    /// `defaults.strategy`, when not `auto`.
    public var strategy: String?
    /// `defaults.app`.
    public var apps: [String]
    /// `defaults.ca`, relative to the plan.
    public var ca: String?
    /// Definitions copied from the team's plan (`--domains FILE`), by top-level key.
    public var copiedDomains: [(name: String, value: YAMLValue)]
    public var copiedClients: [(name: String, value: YAMLValue)]
    public var copiedApps: [(name: String, value: YAMLValue)]
    /// The first comment lines: what it was made from.
    public var header: [String]

    public init(
        strategy: String? = nil, apps: [String] = [], ca: String? = nil, copiedDomains: [(name: String, value: YAMLValue)] = [],
        copiedClients: [(name: String, value: YAMLValue)] = [], copiedApps: [(name: String, value: YAMLValue)] = [],
        header: [String] = []
    ) {
        self.strategy = strategy
        self.apps = apps
        self.ca = ca
        self.copiedDomains = copiedDomains
        self.copiedClients = copiedClients
        self.copiedApps = copiedApps
        self.header = header
    }
}

extension PlanDraft {
    /// The plan as YAML text, comments included.
    public func yaml(_ settings: DraftPlanSettings) -> String {
        var comments = settings.header
        if !secrets.isEmpty {
            comments.append("Set these before a run (runner init listed where each is used):")
            comments.append("  " + secrets.map(\.name).joined(separator: " "))
        }
        return YAMLWriter.document(entries(settings), comments: comments)
    }

    func entries(_ settings: DraftPlanSettings) -> [YAMLEntry] {
        var top: [YAMLEntry] = [YAMLEntry("version", .integer(1))]
        // With no address recorded at all there is no static map: the scenarios use the machine's resolver.
        var defaults: [YAMLEntry] = writesStaticMap && addresses.isEmpty ? [] : [YAMLEntry("domains", .string(mapName))]
        if let strategy = settings.strategy { defaults.append(YAMLEntry("strategy", .string(strategy))) }
        if let ca = settings.ca { defaults.append(YAMLEntry("ca", .string(ca))) }
        if !settings.apps.isEmpty {
            defaults.append(YAMLEntry("app", .sequence(settings.apps.map { YAMLItem(.string($0)) }, style: .flow)))
        }
        top.append(YAMLEntry("defaults", .mapping(defaults)))
        if !settings.copiedClients.isEmpty {
            top.append(YAMLEntry("clients", .mapping(settings.copiedClients.map { YAMLEntry($0.name, $0.value) })))
        }
        if !settings.copiedApps.isEmpty {
            top.append(YAMLEntry("apps", .mapping(settings.copiedApps.map { YAMLEntry($0.name, $0.value) })))
        }
        var maps: [YAMLEntry] = []
        if writesStaticMap, !addresses.isEmpty {
            let hosts = addresses.map { host in
                YAMLEntry(host.host, .sequence(host.addresses.map { YAMLItem(.string($0)) }, style: .flow))
            }
            maps.append(YAMLEntry(mapName, .mapping([YAMLEntry("static", .mapping(hosts))]),
                comments: ["the addresses the app's requests went to (the capture's serverIPAddress)"]))
        }
        maps += settings.copiedDomains.map { YAMLEntry($0.name, $0.value) }
        if !maps.isEmpty { top.append(YAMLEntry("domains", .mapping(maps))) }
        top.append(YAMLEntry("scenarios", .sequence(scenarios.map { YAMLItem(.mapping($0.entries), comments: $0.comments) })))
        return top
    }
}

extension DraftScenario {
    var entries: [YAMLEntry] {
        var entries: [YAMLEntry] = [YAMLEntry("name", .string(name))]
        if let after { entries.append(YAMLEntry("after", .string(after))) }
        if let domains { entries.append(YAMLEntry("domains", .string(domains))) }
        if let followRedirects { entries.append(YAMLEntry("follow_redirects", .boolean(followRedirects))) }
        if let maxRedirects { entries.append(YAMLEntry("max_redirects", .integer(maxRedirects))) }
        var request: [YAMLEntry] = []
        if method != "GET" { request.append(YAMLEntry("method", .string(method))) }
        request.append(YAMLEntry("url", .string(url.planValue)))
        if !headers.isEmpty {
            request.append(YAMLEntry("headers", .mapping(headers.map { YAMLEntry($0.name, .string($0.value.planValue)) })))
        }
        switch body {
        case .text(let text)?: request.append(YAMLEntry("body", .string(text.planValue)))
        case .file(let name, _)?: request.append(YAMLEntry("body_file", .string(name)))
        case .base64(let bytes)?: request.append(YAMLEntry("body_base64", .string(bytes.base64EncodedString())))
        case nil: break
        }
        entries.append(YAMLEntry("request", .mapping(request)))
        entries.append(YAMLEntry("expect", .mapping(expect.entries)))
        if !captures.isEmpty {
            entries.append(YAMLEntry("capture", .mapping(captures.map { capture in
                var fields: [YAMLEntry]
                switch capture.source {
                case .json(let path): fields = [YAMLEntry("json", .string(path))]
                case .header(let name): fields = [YAMLEntry("header", .string(name))]
                }
                if capture.secret { fields.append(YAMLEntry("secret", .boolean(true))) }
                return YAMLEntry(capture.name, .mapping(fields, style: .flow))
            })))
        }
        return entries
    }
}

extension DraftExpectation {
    var entries: [YAMLEntry] {
        var entries: [YAMLEntry] = [
            YAMLEntry(
                "status",
                statuses.count == 1 ? .integer(statuses[0]) : .sequence(statuses.map { YAMLItem(.integer($0)) }, style: .flow)),
        ]
        if let mediaType {
            entries.append(YAMLEntry(
                "headers", .mapping([YAMLEntry("Content-Type", .mapping([YAMLEntry("contains", .string(mediaType))], style: .flow))])))
        }
        if !jsonKeys.isEmpty {
            entries.append(YAMLEntry("body", .mapping([YAMLEntry("json_exists", .sequence(jsonKeys.map { YAMLItem(.string($0)) }, style: .flow))])))
        }
        return entries
    }
}
