import Foundation
import RunnerVocabulary

/// Settings a scenario may take from `defaults:` or set itself; nil means "not written here".
struct SettingsLayer {
    var timeout: Duration?
    var connectTimeout: Duration?
    var http: HTTPVersion?
    var followRedirects: Bool?
    var maxRedirects: Int?
    var caFile: String?
    var insecure: Bool?
    var maxBody: Int?
    var retries: Int?
    var strategies: [StrategyKind]?
    /// Where each strategy was written, for the strategy/URL check.
    var strategyMarks: [YAMLMark] = []
    var ips: IPSelection?
    var ipVersion: IPVersionPreference?
    var domainMap: String?
    var headers: [HeaderEntry]?
    var resolver: ResolverChoice?
    var tls: TLSLayer?
    /// The apps a result is checked as (`app:`), by name.
    var apps: [String]?
    /// `defaults` only: its `tls` checked and resolved once, for the scenarios that write none
    /// (so a mistake in it is reported once, not once per scenario). Nil in a scenario's layer:
    /// one made there was made and destroyed for every scenario, unread.
    var resolvedTLS: ClientTLS?

    func apply(to settings: inout TransferSettings) {
        if let timeout { settings.timeout = timeout }
        if let connectTimeout { settings.connectTimeout = connectTimeout }
        if let http { settings.http = http }
        if let followRedirects { settings.followRedirects = followRedirects }
        if let maxRedirects { settings.maxRedirects = maxRedirects }
        if let caFile { settings.caFile = caFile }
        if let insecure { settings.insecure = insecure }
        if let maxBody { settings.maxBody = maxBody }
        if let retries { settings.retries = retries }
        if let resolver { settings.resolver = resolver }
    }
}

/// A header with its lower-cased name, the key headers merge on.
struct HeaderEntry {
    var key: String
    var header: Header
    /// Where the name is written, for a later duplicate's message.
    var keyMark: YAMLMark
    /// The `${capture:…}` in the value (a request's own headers only).
    var captures: [PendingCaptureUse] = []
    var valueMark: YAMLMark? = nil
}

/// The request as decoded, before defaults are merged in.
///
/// A class: the decoder hands it around as an optional, and an optional of this large struct
/// was destroyed through its type's metadata (~650 instructions a scenario); the box costs an
/// allocation. Read only once made (`let`s: no exclusivity checks).
final class RequestParts {
    let method: String
    let url: PlanURL
    let urlMark: YAMLMark
    let headers: [HeaderEntry]
    let body: RequestBody?
    let insecure: Bool?
    /// Where captured values go (`${capture:NAME}`).
    let captureUses: [CaptureUse]
    /// `grpc:`: the request is this call.
    let grpc: GRPCCall?

    init(
        method: String, url: PlanURL, urlMark: YAMLMark, headers: [HeaderEntry], body: RequestBody?, insecure: Bool?,
        captureUses: [CaptureUse], grpc: GRPCCall? = nil
    ) {
        self.method = method
        self.url = url
        self.urlMark = urlMark
        self.headers = headers
        self.body = body
        self.insecure = insecure
        self.captureUses = captureUses
        self.grpc = grpc
    }
}

extension PlanDecoder {
    // MARK: Settings (defaults and scenario level)

    /// The settings among `fields`, written into `layer`: `setting` tells which of the
    /// section's keys are settings. Filled in place: returned, the large layer was copied and
    /// the original destroyed through its type's metadata, for every scenario.
    func decodeSettings<Key>(_ fields: Fields<Key>, setting: (Key) -> SettingKey?, into layer: inout SettingsLayer) {
        let context = fields.context
        for entry in fields.entries {
            guard let name = setting(entry.name) else { continue }
            func site() -> Site { Site(key: entry.key, context) }
            let value = entry.value
            switch name {
            case .timeout: layer.timeout = duration(value, for: site())
            case .connectTimeout: layer.connectTimeout = duration(value, for: site())
            case .http:
                layer.http = choice(value, for: site(), among: ["1.1", "2", "auto"])
                    .flatMap { HTTPVersion(rawValue: $0.value) }
            case .followRedirects: layer.followRedirects = bool(value, for: site())
            case .maxRedirects: layer.maxRedirects = integer(value, for: site(), minimum: 0)
            case .ca:
                layer.caFile = string(value, for: site()).flatMap { planRelativeFile($0, what: "ca file", site: site()) }
            case .insecure: layer.insecure = bool(value, for: site())
            case .maxBody: layer.maxBody = size(value, for: site())
            case .retries: layer.retries = integer(value, for: site(), minimum: 0, maximum: TransferSettings.maxRetries)
            case .strategy: decodeStrategies(value, site: site(), into: &layer)
            case .ips: layer.ips = choice(value, for: site(), among: ["first", "all"]).flatMap { IPSelection(rawValue: $0.value) }
            case .ipVersion:
                layer.ipVersion = choice(value, for: site(), among: ["4", "6", "any"])
                    .flatMap { IPVersionPreference(rawValue: $0.value) }
            case .domains: layer.domainMap = domainMapReference(value, site: site())
            case .headers: layer.headers = decodeHeaders(value, site: site(), context: context.part(.headers))
            case .resolver: layer.resolver = resolverChoice(value, site: site())
            case .tls: layer.tls = decodeTLS(value, site: site(), context: context)
            case .app: layer.apps = appReferences(value, site: site())
            }
        }
    }

    private func decodeStrategies(_ node: YAMLNode, site: @autoclosure () -> Site, into layer: inout SettingsLayer) {
        guard let items = items(node, expected: "a strategy name or a list of them", for: site()) else { return }
        guard !items.isEmpty else {
            report(at: node.mark, "expected at least one strategy for \(site()), got an empty list")
            return
        }
        let names = Self.strategyNames
        var strategies: [StrategyKind] = []
        var marks: [YAMLMark] = []
        strategies.reserveCapacity(items.count)
        marks.reserveCapacity(items.count)
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            guard let strategy = Self.strategy(named: text.value) else {
                let hint = Suggestion.closest(to: text.value, among: names).map { "; did you mean '\($0)'?" }
                    ?? "; expected one of \(names.joined(separator: ", "))"
                report(at: text.mark, "unknown strategy \(text.quoted) \(site().context)\(hint)")
                failed = true
                continue
            }
            if let first = strategies.firstIndex(of: strategy) {
                report(at: text.mark, "duplicate strategy '\(strategy.rawValue)' \(site().context) (first at \(marks[first].text))")
                failed = true
                continue
            }
            strategies.append(strategy)
            marks.append(text.mark)
        }
        guard !failed else { return }
        layer.strategies = strategies
        layer.strategyMarks = marks
    }

    private static let strategyNames = StrategyKind.allCases.map(\.rawValue)
    private static let strategiesByName = StrategyKind.allCases.map { (name: $0.rawValue, kind: $0) }

    /// `StrategyKind(rawValue:)` compares the text with each name in turn; the lengths tell
    /// most names apart with no compare (every scenario names a strategy or two).
    private static func strategy(named text: String) -> StrategyKind? {
        let count = text.utf8.count
        for entry in strategiesByName where entry.name.utf8.count == count && entry.name == text { return entry.kind }
        return nil
    }

    /// `resolver:` — `system` or a DNS server by address.
    private func resolverChoice(_ node: YAMLNode, site: @autoclosure () -> Site) -> ResolverChoice? {
        guard let text = string(node, for: site()) else { return nil }
        if let choice = ResolverChoice(text.value) { return choice }
        let isName = text.value.unicodeScalars.contains { $0.properties.isAlphabetic }
            && IPAddress(text.value) == nil && !text.value.hasPrefix("[")
        report(
            at: text.mark,
            "expected 'system' or a DNS server's address ('IP', 'IP:PORT' or '[IPv6]:PORT') for \(site()), got \(text.quoted)"
                + (isName ? "; a resolver is given by its address, since finding it by name would take a resolver" : ""))
        return nil
    }

    func domainMapReference(_ node: YAMLNode, site: @autoclosure () -> Site) -> String? {
        guard let text = string(node, for: site()) else { return nil }
        guard domainMapNameSet.contains(text.value) else {
            let declared = domainMapNames + [systemDomainMapName]
            let hint = Suggestion.closest(to: text.value, among: declared).map { "; did you mean '\($0)'?" }
                ?? "; the plan declares \(declared.map { "'\($0)'" }.joined(separator: ", "))"
            report(at: text.mark, "unknown domain map \(text.quoted) \(site().context)\(hint)")
            return nil
        }
        return text.value
    }

    /// Header name → value. Names are HTTP tokens, values carry no line breaks.
    func decodeHeaders(_ node: YAMLNode, site: @autoclosure () -> Site, context: Context) -> [HeaderEntry]? {
        guard let entries = namedEntries(of: node, site: site()) else { return nil }
        var headers: [HeaderEntry] = []
        headers.reserveCapacity(entries.count)
        var failed = false
        for entry in entries {
            guard Self.isToken(entry.key) else {
                report(at: entry.keyMark, "invalid header name '\(entry.key)' \(context); \(Self.tokenRule)")
                failed = true
                continue
            }
            let key = entry.key.lowercased()
            // A few headers per mapping: a scan beats hashing.
            if let first = headers.firstIndex(where: { $0.key == key }) {
                report(at: entry.keyMark, "duplicate header '\(entry.key)' \(context) (first at \(headers[first].keyMark.text))")
                failed = true
                continue
            }
            let capturesBefore = captureCollector?.count ?? 0
            guard let value = string(entry.value, for: Site(kind: "header", name: entry.key, context)) else {
                failed = true
                continue
            }
            let captures = Array(captureCollector?.dropFirst(capturesBefore) ?? [])
            if value.value.containsLineBreakOrNUL {
                report(at: value.mark, "the value of header '\(entry.key)' \(context) must not contain CR, LF or NUL")
                failed = true
                continue
            }
            headers.append(HeaderEntry(
                key: key, header: Header(name: entry.key, value: value.value), keyMark: entry.keyMark, captures: captures,
                valueMark: value.mark))
        }
        return failed ? nil : headers
    }

    static let tokenRule = "a header name is a token of letters, digits and !#$%&'*+-.^_`|~"

    /// RFC 9110 token: what a method or header name may be.
    static func isToken(_ text: String) -> Bool {
        // Over the bytes in place: the generic `utf8.allSatisfy` cost ~30 instructions a byte,
        // for every header name of every scenario.
        text.withUTF8Bytes { utf8 in
            !utf8.isEmpty && tokenBytes.withUnsafeBufferPointer { table in utf8.allSatisfy { table[Int($0)] } }
        }
    }

    private static let tokenBytes: [Bool] = (0..<256).map { byte in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return byte < 0x80 && "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    // MARK: Scenarios

    func decodeScenarios(_ entry: FieldEntry<TopLevelKey>, defaults: SettingsLayer) -> [Scenario] {
        func site() -> Site { Site(key: "scenarios", Context(.topLevel)) }
        guard case .sequence(let items) = entry.value.content else {
            report(at: entry.value.mark, "expected a list of scenarios for \(site()), got \(describe(entry.value))")
            return []
        }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one scenario for \(site()), got an empty list")
            return []
        }
        var scenarios: [Scenario] = []
        scenarios.reserveCapacity(items.count)
        var names: [String: YAMLMark] = [:]
        decodeScenarios(items, firstNumber: 1, defaults: defaults, names: &names) { scenarios.append($0) }
        scenarioNamesWritten = names
        return scenarios
    }

    /// Decodes scenarios numbered from `firstNumber` and hands each valid one to `emit`, in
    /// order; `names` holds the names already taken, by where they are written, and takes these.
    func decodeScenarios(
        _ items: YAMLSequence, firstNumber: Int, defaults: SettingsLayer, names: inout [String: YAMLMark],
        emit: (consuming Scenario) -> Void
    ) {
        names.reserveCapacity(names.count + items.count)
        for (offset, item) in items.enumerated() {
            decodeScenarioItem(item, number: firstNumber + offset, defaults: defaults, names: &names, emit: emit)
        }
    }

    /// Decodes the scenario list's item numbered `number` and hands it to `emit` when valid;
    /// `names` as for `decodeScenarios`.
    func decodeScenarioItem(
        _ item: YAMLNode, number: Int, defaults: SettingsLayer, names: inout [String: YAMLMark],
        emit: (consuming Scenario) -> Void
    ) {
        let errorsBefore = errors.count
        if let scenario = decodeScenario(item, number: number, defaults: defaults, names: &names) {
            emit(scenario)
        } else if errors.count == errorsBefore {
            // Not built for want of a value only the environment has (its notes say which).
            scenariosNotBuilt += 1
        }
    }

    private func decodeScenario(
        _ node: YAMLNode, number: Int, defaults: SettingsLayer, names: inout [String: YAMLMark]
    ) -> Scenario? {
        let errorsBefore = errors.count
        guard case .mapping(let pairs) = node.content else {
            report(at: node.mark, "expected a mapping for scenario #\(number) in 'scenarios', got \(describe(node))")
            return nil
        }

        // The name first: every other message names the scenario.
        var name = ""
        var shownName: String?
        if let position = (0..<pairs.count).first(where: { pairs.keyTextIndex(at: $0).flatMap(PlanKey.init) == .name }),
           let text = string(pairs[position].value, for: Site(key: "name", Context(.scenario(number: number, name: nil)))) {
            name = text.value
            shownName = text.shown
            // One hash of the name: stored as if new, the first mark put back for a duplicate.
            if let first = names.updateValue(text.mark, forKey: name) {
                names[name] = first
                report(at: text.mark, "duplicate scenario name \(text.quoted) (first at \(first.text))")
            }
        }
        let context = Context(.scenario(number: number, name: shownName))
        func label() -> String { Context.scenarioLabel(number: number, name: shownName) }
        guard let fields = fields(of: node, site: Site(subject: label(), context), context: context, keys: Keys.scenario)
        else { return nil }
        // The scenario's own keys in one pass (each at most once: the parser drops a duplicate).
        var nameEntry, tagsEntry, requestEntry, expectEntry, afterEntry, captureEntry: FieldEntry<ScenarioKey>?
        for entry in fields.entries {
            switch entry.name {
            case .name: nameEntry = entry
            case .tags: tagsEntry = entry
            case .request: requestEntry = entry
            case .expect: expectEntry = entry
            case .after: afterEntry = entry
            case .capture: captureEntry = entry
            case .setting: break  // decodeSettings reads them
            }
        }
        if nameEntry == nil { _ = required(.name, in: fields) }

        var tags: [String] = []
        if let entry = tagsEntry {
            func site() -> Site { Site(key: "tags", context) }
            if let items = items(entry.value, expected: "a list of tags", for: site()) {
                tags.reserveCapacity(items.count)
                for item in items {
                    if let text = string(item, for: Site(subject: "a tag", context)) { tags.append(text.value) }
                }
            }
        }

        var layer = SettingsLayer()
        decodeSettings(fields, setting: \.setting, into: &layer)
        let request = (requestEntry ?? required(.request, in: fields)).flatMap {
            decodeRequest($0, context: context, enclosing: pairs)
        }
        var expect = Expectations()
        if let expectEntry { decodeExpect(expectEntry, context: context, enclosing: pairs, request: request, into: &expect) }
        let after = afterEntry.flatMap { decodeAfter($0, context: context) } ?? []
        let captures = captureEntry.flatMap { decodeCaptures($0, context: context) } ?? []

        guard let request else { return nil }
        let strategies = layer.strategies ?? defaults.strategies ?? [.auto]
        checkStrategies(
            strategies, marks: layer.strategies == nil ? nil : layer.strategyMarks, url: request.url,
            urlMark: request.urlMark, scenario: label())

        if expect.dns != nil {
            let map = layer.domainMap ?? defaults.domainMap ?? systemDomainMapName
            let asksResolver = strategies.contains { $0.concrete(for: request.url.scheme) == .system }
                || mapsReachingSystemResolver.contains(map)
            if !asksResolver, let mark = expectEntry?.keyMark {
                report(
                    at: mark,
                    "'expect.dns' checks what a resolver answers, but \(label()) asks none: its strategies pin IPs from "
                        + "domain map '\(map)', which does not fall back to the system resolver; use strategy 'system' or a map with 'fallback: system'")
            }
        }

        if !expect.edges.isEmpty, let mark = expectEntry?.keyMark {
            checkEdges(expect.edges, map: layer.domainMap ?? defaults.domainMap ?? systemDomainMapName, at: mark, scenario: label())
        }

        if let call = request.grpc {
            // gRPC is HTTP/2 only: ALPN h2 over TLS, prior knowledge in cleartext.
            if let written = layer.http ?? defaults.http, written != .http2, written != .auto {
                report(
                    at: fields[.setting(.http)]?.keyMark ?? request.urlMark,
                    "\(label()) makes a gRPC call, which needs HTTP/2, but its 'http' is \(written.rawValue)\(fields[.setting(.http)] == nil ? " (from defaults)" : ""); remove it or write 2")
            }
            if expect.grpc == nil {
                expect.grpc = GRPCExpectation(status: .ok, serving: call.isHealthCheck ? .serving : nil)
            }
        }

        guard errors.count == errorsBefore else { return nil }
        var settings = TransferSettings()
        defaults.apply(to: &settings)
        layer.apply(to: &settings)
        if request.grpc != nil { settings.http = .http2 }
        settings.tls = layer.tls.map { clientTLS($0.over(defaults.tls), scenario: label()) } ?? defaults.resolvedTLS ?? ClientTLS()
        if let insecure = request.insecure { settings.insecure = insecure }
        var headers = Self.merge([defaults.headers ?? [], layer.headers ?? [], request.headers]).map(\.header)
        if let call = request.grpc {
            // gRPC's own headers first, then the plan's, then the call's metadata.
            let own = Set((GRPCCall.protocolHeaders + call.metadata).map { $0.name.lowercased() })
            headers = GRPCCall.protocolHeaders + headers.filter { !own.contains($0.name.lowercased()) } + call.metadata
        }
        var scenario = Scenario(
            name: name, location: location(node.mark), tags: tags,
            domainMap: layer.domainMap ?? defaults.domainMap ?? systemDomainMapName,
            strategies: strategies, ips: layer.ips ?? defaults.ips ?? .first,
            ipVersion: layer.ipVersion ?? defaults.ipVersion ?? .any, settings: settings,
            request: RequestSpec(method: request.method, url: request.url, headers: headers, body: request.body, grpc: request.grpc),
            // Moved, not copied: a large value is copied (and the original destroyed) through
            // its type's metadata.
            expect: consume expect)
        scenario.after = after
        let appNames = layer.apps ?? defaults.apps ?? []
        scenario.apps = apps.filter { appNames.contains($0.name) }
        scenario.captures = captures
        scenario.captureUses = request.captureUses
        return scenario
    }

    /// `expect.edges` checks the answers of a map asked as clients: on another map, or with a
    /// rule for none of the clients the map is asked as, it would check nobody.
    private func checkEdges(_ rules: [EdgeRule], map: String, at mark: YAMLMark, scenario: String) {
        guard let asked = clientsAskedBy[map] else {
            // A map that did not decode has its own errors.
            guard mapsAskingAsThisMachine.contains(map) else { return }
            report(
                at: mark,
                "'expect.edges' checks where client populations are sent, but \(scenario) looks its host up through "
                    + "domain map '\(map)', which is not asked as clients: add 'clients' to an httpdns map and use it")
            return
        }
        for rule in rules where !asked.contains(where: { rule.selects($0.identity) }) {
            report(
                at: rule.location,
                "this rule of 'expect.edges' (\(scenario)) selects none of the clients domain map '\(map)' is asked as "
                    + "(\(asked.map(\.name).joined(separator: ", "))): it would check nobody")
        }
    }

    /// `header-only` sends the IP in plain HTTP; `trust-override` only makes sense with TLS.
    /// Reported at the strategy when the scenario names it, else at the URL.
    private func checkStrategies(
        _ strategies: [StrategyKind], marks: [YAMLMark]?, url: PlanURL, urlMark: YAMLMark,
        scenario: @autoclosure () -> String
    ) {
        for (index, strategy) in strategies.enumerated() {
            guard let only = strategy.onlyScheme, only != url.scheme else { continue }
            let origin = marks == nil ? " (from defaults)" : ""
            let instead = StrategyKind.suggestions(for: url.scheme)
            report(
                at: marks?[index] ?? urlMark,
                "strategy '\(strategy.rawValue)'\(origin) is for \(only.rawValue):// URLs, but \(scenario()) requests \(url.scheme.rawValue)://; use \(instead)"
            )
        }
    }

    /// Later layers replace a header of the same name (any case) in its first position.
    static func merge(_ layers: [[HeaderEntry]]) -> [HeaderEntry] {
        var result: [HeaderEntry] = []
        result.reserveCapacity(layers.reduce(0) { $0 + $1.count })
        for layer in layers {
            for entry in layer {
                // A request has a handful of headers: a scan beats hashing.
                if let position = result.firstIndex(where: { $0.key == entry.key }) {
                    result[position] = entry
                } else {
                    result.append(entry)
                }
            }
        }
        return result
    }

    // MARK: Request

    private func decodeRequest(_ entry: FieldEntry<ScenarioKey>, context scenario: Context, enclosing: YAMLMapping) -> RequestParts? {
        let context = scenario.part(.request)
        guard let fields = fields(
            of: entry.value, site: Site(key: "request", scenario), context: context, ownerMark: entry.keyMark,
            keys: Keys.request, enclosing: enclosing)
        else { return nil }
        let errorsBefore = errors.count

        // The keys written, in one pass (each key at most once: the parser drops a duplicate).
        var methodEntry, urlEntry, headersEntry, insecureEntry, grpcEntry: FieldEntry<RequestKey>?
        var bodyEntry, bodyBase64Entry, bodyFileEntry: FieldEntry<RequestKey>?
        for entry in fields.entries {
            switch entry.name {
            case .method: methodEntry = entry
            case .url: urlEntry = entry
            case .headers: headersEntry = entry
            case .body: bodyEntry = entry
            case .bodyBase64: bodyBase64Entry = entry
            case .bodyFile: bodyFileEntry = entry
            case .insecure: insecureEntry = entry
            case .grpc: grpcEntry = entry
            }
        }

        var method = "GET"
        if let entry = methodEntry, let text = string(entry.value, for: Site(key: "method", context)) {
            if Self.isToken(text.value) {
                method = text.value.uppercased()
            } else {
                report(
                    at: text.mark,
                    "expected an HTTP method such as GET or POST for \(Site(key: "method", context)), got \(text.quoted)")
            }
        }

        var captureUses: [CaptureUse] = []
        var url: (PlanURL, YAMLMark)?
        if let entry = urlEntry ?? required(.url, in: fields) {
            func site() -> Site { Site(key: "url", context) }
            let (written, uses) = collectingCaptures { string(entry.value, for: site()) }
            if let text = written {
                if let parsed = PlanURL.parse(text.value) {
                    if Self.hasCredentials(text.value) {
                        report(at: text.mark, "the URL for \(site()) carries credentials; send them in an Authorization header")
                    } else if let places = urlCaptureUses(uses, text: text, url: parsed, site: site()) {
                        url = (parsed, text.mark)
                        captureUses += places
                    }
                } else {
                    report(at: text.mark, "expected an absolute http:// or https:// URL for \(site()), got \(text.quoted)")
                }
            }
        }

        let (headers, _) = collectingCaptures {
            headersEntry.flatMap {
                decodeHeaders($0.value, site: Site(key: "headers", context), context: scenario.part(.requestHeaders))
            }
        }
        for header in headers ?? [] {
            for use in header.captures {
                captureUses.append(CaptureUse(
                    name: use.name, field: .header(header.key), offset: use.offset,
                    location: location(header.valueMark ?? header.keyMark)))
            }
        }

        var body: RequestBody?
        // The body kinds written, first two in file order (no array: most requests have one or none).
        var firstBody: FieldEntry<RequestKey>?
        var secondBody: FieldEntry<RequestKey>?
        func consider(_ written: FieldEntry<RequestKey>?) {
            guard let entry = written else { return }
            if let first = firstBody, first.keyMark < entry.keyMark {
                if let second = secondBody, second.keyMark < entry.keyMark { return }
                secondBody = entry
            } else {
                secondBody = firstBody
                firstBody = entry
            }
        }
        consider(bodyEntry)
        consider(bodyBase64Entry)
        consider(bodyFileEntry)
        if let firstBody, let secondBody {
            report(
                at: secondBody.keyMark,
                "only one of 'body', 'body_base64' and 'body_file' may be given \(context); found '\(firstBody.key)' and '\(secondBody.key)'"
            )
        } else if let entry = firstBody {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .body:
                let (written, uses) = collectingCaptures { string(entry.value, for: site()) }
                body = written.map { text in
                    captureUses += uses.map { CaptureUse(name: $0.name, field: .body, offset: $0.offset, location: location(text.mark)) }
                    return .bytes(text.value.withUTF8Bytes { Data($0) })
                }
            case .bodyBase64:
                if let text = string(entry.value, for: site()) {
                    let compact = String(text.value.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
                    if let data = Data(base64Encoded: compact) {
                        body = .bytes(data)
                    } else {
                        report(at: text.mark, "expected base64 data for \(site()), got \(text.quoted)")
                    }
                }
            case .bodyFile:
                body = string(entry.value, for: site())
                    .flatMap { planRelativeFile($0, what: "body_file", site: site()) }
                    .map { .file(path: $0) }
            case .method, .url, .headers, .insecure, .grpc:
                break  // not body kinds: only those three are `consider`ed above
            }
        }

        let insecure = insecureEntry.flatMap { bool($0.value, for: Site(key: "insecure", context)) }

        var grpc: GRPCCall?
        if let entry = grpcEntry {
            grpc = decodeGRPCCall(entry, context: context)
            // The call makes the method, the path and the body: the plan may not write others.
            if let body = firstBody {
                report(at: body.keyMark, "'\(body.key)' \(context): a gRPC call's body is its message (grpc.message_base64)")
            }
            if let written = methodEntry, method != "POST" {
                report(at: written.keyMark, "a gRPC call is a POST \(context); remove 'method' or write POST")
            }
            if let (parsed, mark) = url, parsed.pathAndQuery != "/" {
                report(
                    at: mark,
                    "the URL of a gRPC call names the server only (\(parsed.scheme.rawValue)://\(parsed.authority)) \(context); "
                        + "the call's method is its path")
            }
        }

        guard errors.count == errorsBefore, let (parsedURL, urlMark) = url else { return nil }
        if let grpc {
            return RequestParts(
                method: "POST",
                url: PlanURL(scheme: parsedURL.scheme, host: parsedURL.host, explicitPort: parsedURL.explicitPort, pathAndQuery: grpc.path),
                urlMark: urlMark, headers: headers ?? [], body: .bytes(grpc.framedMessage), insecure: insecure,
                captureUses: captureUses, grpc: grpc)
        }
        return RequestParts(
            method: method, url: parsedURL, urlMark: urlMark, headers: headers ?? [], body: body, insecure: insecure,
            captureUses: captureUses)
    }

    /// `user:pass@` before the host: PlanURL would drop it silently.
    static func hasCredentials(_ url: String) -> Bool {
        return url.withUTF8Bytes { utf8 in
            // Skip `scheme://`; PlanURL has already checked there is one.
            guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
            var index = colon + 1
            while index < utf8.count, utf8[index] == UInt8(ascii: "/") { index += 1 }
            while index < utf8.count {
                switch utf8[index] {
                case UInt8(ascii: "@"): return true
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return false
                default: index += 1
                }
            }
            return false
        }
    }
}
