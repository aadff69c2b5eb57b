import Foundation

extension PlanDecoder {
    /// `after:` — one scenario name or a list of them (checked against the plan's scenarios
    /// once all are read: `checkFlows`).
    func decodeAfter(_ entry: FieldEntry<ScenarioKey>, context: Context) -> [ScenarioReference]? {
        func site() -> Site { Site(key: "after", context) }
        guard let items = items(entry.value, expected: "a scenario name or a list of them", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: entry.value.mark, "expected at least one scenario name for \(site()), got an empty list")
            return nil
        }
        var references: [ScenarioReference] = []
        var failed = false
        for item in items {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            if let first = references.first(where: { $0.name == text.value }) {
                report(at: text.mark, "scenario \(text.quoted) is named twice \(site().context) (first at \(first.location.line):\(first.location.column))")
                failed = true
                continue
            }
            references.append(ScenarioReference(name: text.value, location: location(text.mark)))
        }
        return failed ? nil : references
    }

    /// `capture:` — name → where the value is (`json`, `header` or `body`, exactly one) and
    /// whether it is secret.
    func decodeCaptures(_ entry: FieldEntry<ScenarioKey>, context scenario: Context) -> [Capture]? {
        guard let entries = namedEntries(of: entry.value, site: Site(key: "capture", scenario)) else { return nil }
        var captures: [Capture] = []
        captures.reserveCapacity(entries.count)
        var failed = false
        for named in entries {
            let context = scenario.part(.capture, named: named.key)
            guard Self.isCaptureName(named.key) else {
                report(at: named.keyMark, "invalid capture name '\(named.key)' \(scenario.part(.capture)); \(Self.captureNameRule)")
                failed = true
                continue
            }
            let errorsBefore = errors.count
            // An unknown key (a misspelt source) is the one error to show for this capture.
            guard let fields = fields(
                of: named.value, site: Site(kind: "capture", name: named.key, scenario), context: context,
                ownerMark: named.keyMark, keys: Keys.capture), errors.count == errorsBefore
            else {
                failed = true
                continue
            }
            let sources = CaptureKey.sources.compactMap { fields[$0] }
            guard sources.count == 1, let source = sources.first else {
                let found = sources.map { "'\($0.key)'" }.joined(separator: " and ")
                report(
                    at: sources.count > 1 ? sources[1].keyMark : named.keyMark,
                    "a capture takes exactly one of 'json', 'header' and 'body' \(context)"
                        + (sources.isEmpty ? "" : "; found \(found)"))
                failed = true
                continue
            }
            var secret = false
            if let entry = fields[.secret] {
                guard let value = bool(entry.value, for: Site(key: "secret", context)) else {
                    failed = true
                    continue
                }
                secret = value
            }
            guard let decoded = captureSource(source, context: context) else {
                failed = true
                continue
            }
            captures.append(Capture(name: named.key, source: decoded, secret: secret, location: location(named.keyMark)))
        }
        return failed ? nil : captures
    }

    private func captureSource(_ entry: FieldEntry<CaptureKey>, context: Context) -> Capture.Source? {
        func site() -> Site { Site(key: entry.key, context) }
        guard let text = string(entry.value, for: site()) else { return nil }
        switch entry.name {
        case .json:
            switch JSONPathParser.parse(text.value) {
            case .success(let path):
                return .json(path)  // the parser refuses `[*]` outside HTTPDNS answers
            case .failure(let problem):
                report(at: text.mark, "invalid JSON path \(text.quoted) for \(site()): \(problem.message)")
                return nil
            }
        case .header:
            guard Self.isToken(text.value) else {
                report(at: text.mark, "invalid header name \(text.quoted) for \(site()); \(Self.tokenRule)")
                return nil
            }
            return .header(text.value)
        case .body:
            // Matched with Swift's Regex, as `expect.body.matches` is; Swift's Regex does not say
            // how many groups a pattern has before a match, ICU's (the same syntax here) does.
            guard (try? Regex(text.value)) != nil,
                let groups = try? NSRegularExpression(pattern: text.value).numberOfCaptureGroups
            else {
                report(at: text.mark, "invalid regular expression \(text.quoted) for \(site())")
                return nil
            }
            guard groups == 1 else {
                report(at: text.mark, "a body capture takes a regular expression with exactly one group, \(site()) has \(groups)")
                return nil
            }
            return .body(text.value)
        case .secret:
            return nil  // not a source: `CaptureKey.sources` holds only the three
        }
    }

    static let captureNameRule = "a capture name is a letter or '_', then letters, digits or '_'"

    /// Read in bytes: every allowed character is ASCII, where the letters are `A`-`Z` and
    /// `a`-`z` (no Unicode property lookups for each name of each flow).
    static func isCaptureName(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension PlanDecoder {
    /// The checks that need every scenario of the plan: each `after` names another scenario,
    /// `after` forms no cycle, no scenario captures a name a scenario before it on its chain
    /// already captures, and each `${capture:NAME}` is captured on every chain that leads to it.
    func checkFlows(_ scenarios: [Scenario]) {
        guard scenarios.contains(where: { !$0.after.isEmpty || !$0.captureUses.isEmpty }) else { return }
        var position: [String: Int] = [:]
        position.reserveCapacity(scenarios.count)
        for (index, scenario) in scenarios.enumerated() { position[scenario.name] = index }

        // Edges to the scenarios each one runs after; unknown names are reported and dropped.
        var predecessors: [[Int]] = Array(repeating: [], count: scenarios.count)
        // Scenarios after one that did not decode (its errors are reported): what they may use
        // is unknown, so nothing is said about it.
        var afterBroken = Array(repeating: false, count: scenarios.count)
        for (index, scenario) in scenarios.enumerated() {
            for reference in scenario.after {
                guard let target = position[reference.name] else {
                    if scenarioNamesWritten[reference.name] != nil {
                        afterBroken[index] = true
                        continue
                    }
                    let others = scenarios.lazy.map(\.name).filter { $0 != scenario.name }
                    let hint = Suggestion.closest(to: reference.name, among: others).map { "; did you mean '\($0)'?" } ?? ""
                    report(at: reference.location, "unknown scenario '\(reference.name)' in 'after' of scenario '\(scenario.name)'\(hint)")
                    continue
                }
                guard target != index else {
                    report(at: reference.location, "scenario '\(scenario.name)' cannot run after itself")
                    continue
                }
                predecessors[index].append(target)
            }
        }
        guard let order = orderOrReportCycle(scenarios, predecessors: predecessors) else { return }

        // Predecessors first: the names each scenario can use (captured on every chain to it)
        // and the names captured anywhere before it (no capture may take one of those again).
        var available: [Set<String>] = Array(repeating: [], count: scenarios.count)
        var capturedBefore: [[String: String]] = Array(repeating: [:], count: scenarios.count)
        for index in order {
            let scenario = scenarios[index]
            if predecessors[index].contains(where: { afterBroken[$0] }) { afterBroken[index] = true }
            var common: Set<String>?
            for predecessor in predecessors[index] {
                let offered = available[predecessor].union(scenarios[predecessor].captures.map(\.name))
                common = common.map { $0.intersection(offered) } ?? offered
                capturedBefore[index].merge(capturedBefore[predecessor]) { first, _ in first }
                for capture in scenarios[predecessor].captures where capturedBefore[index][capture.name] == nil {
                    capturedBefore[index][capture.name] = scenarios[predecessor].name
                }
            }
            available[index] = common ?? []
            // Most scenarios have nothing captured before them (a flow's first step): no lookups.
            for capture in scenario.captures where !capturedBefore[index].isEmpty {
                if let earlier = capturedBefore[index][capture.name] {
                    report(
                        at: capture.location,
                        "capture '\(capture.name)' of scenario '\(scenario.name)' is already captured by scenario '\(earlier)' "
                            + "before it on its 'after' chain; give it another name")
                }
            }
            for use in scenario.captureUses where !afterBroken[index] && !available[index].contains(use.name) {
                let offering = predecessors[index].filter { scenarios[$0].captures.contains { $0.name == use.name } || available[$0].contains(use.name) }
                let detail =
                    offering.isEmpty
                    ? "no scenario before it on its 'after' chain captures '\(use.name)'"
                    : "not every scenario it runs after captures '\(use.name)' ("
                        + predecessors[index].filter { !offering.contains($0) }.map { "'\(scenarios[$0].name)'" }.joined(separator: ", ")
                        + " does not)"
                report(at: use.location, "${capture:\(use.name)} in scenario '\(scenario.name)': \(detail)")
            }
        }
    }

    /// The scenarios with each one after those it runs after; nil when `after` forms a cycle,
    /// which is reported once, at the first scenario of the cycle in the plan.
    private func orderOrReportCycle(_ scenarios: [Scenario], predecessors: [[Int]]) -> [Int]? {
        enum Mark { case unvisited, inProgress, done }
        var marks = Array(repeating: Mark.unvisited, count: scenarios.count)
        var order: [Int] = []
        order.reserveCapacity(scenarios.count)
        var cycle: [Int]?
        // Depth first, iteratively (a plan may chain thousands of scenarios).
        for start in scenarios.indices where marks[start] == .unvisited && cycle == nil {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            marks[start] = .inProgress
            while let top = stack.last, cycle == nil {
                if top.next < predecessors[top.node].count {
                    stack[stack.count - 1].next += 1
                    let target = predecessors[top.node][top.next]
                    switch marks[target] {
                    case .unvisited:
                        marks[target] = .inProgress
                        stack.append((target, 0))
                    case .inProgress:
                        let path = stack.map(\.node)
                        cycle = Array(path[(path.firstIndex(of: target) ?? 0)...])
                    case .done:
                        continue
                    }
                } else {
                    marks[top.node] = .done
                    order.append(top.node)
                    stack.removeLast()
                }
            }
        }
        guard let cycle else { return order }
        // Reported at the earliest scenario of the cycle, naming the loop from there.
        let first = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
        let loop = Array(cycle[first...] + cycle[..<first]) + [cycle[first]]
        let names = loop.map { "'\(scenarios[$0].name)'" }.joined(separator: " → ")
        let scenario = scenarios[loop[0]]
        let reference = scenario.after.first { $0.name == scenarios[loop[1]].name }
        report(at: reference?.location ?? scenario.location, "'after' forms a cycle: \(names) (each runs after the next)")
        return nil
    }
}

/// A `${capture:NAME}` met while substituting: the name and where the value goes in the text.
struct PendingCaptureUse {
    var name: String
    /// UTF-8 bytes into the substituted text.
    var offset: Int
}

extension PlanDecoder {
    /// Runs `decode` with `${capture:…}` allowed; returns what it decoded and the references met.
    func collectingCaptures<T>(_ decode: () -> T) -> (T, [PendingCaptureUse]) {
        let outer = captureCollector
        captureCollector = []
        defer { captureCollector = outer }
        let value = decode()
        return (value, captureCollector ?? [])
    }

    /// The URL's captures as places in its path and query; reported (and nil) when one sits in
    /// the scheme, host or port, or the URL is not written as it is sent (its path and query
    /// percent-encoded already), where a place in the text is no place in the request.
    func urlCaptureUses(_ uses: [PendingCaptureUse], text: Text, url: PlanURL, site: Site) -> [CaptureUse]? {
        guard !uses.isEmpty else { return [] }
        let bytes = Array(text.value.utf8)
        // Where the path starts in the text: the first '/', '?' or '#' after "scheme://".
        var pathStart = bytes.count
        if let separator = text.value.range(of: "://") {
            let after = text.value.utf8.distance(from: text.value.utf8.startIndex, to: separator.upperBound)
            pathStart = bytes[after...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        }
        let fragment = bytes[pathStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        var written = String(decoding: bytes[pathStart..<fragment], as: UTF8.self)
        // `PlanURL` starts the path with '/' when the text has none before its query.
        let added = written.hasPrefix("/") ? 0 : 1
        if added == 1 { written = "/" + written }
        var result: [CaptureUse] = []
        for use in uses {
            guard use.offset > pathStart else {
                report(at: text.mark, "${capture:\(use.name)} in \(site) must be in the URL's path or query, not its scheme, host or port")
                return nil
            }
            guard written == url.pathAndQuery, use.offset <= fragment else {
                report(
                    at: text.mark,
                    "${capture:\(use.name)} in \(site) must be in the URL's path or query, written percent-encoded as it is sent")
                return nil
            }
            result.append(CaptureUse(name: use.name, field: .pathAndQuery, offset: use.offset - pathStart + added, location: location(text.mark)))
        }
        return result
    }
}
