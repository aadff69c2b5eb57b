/// `expect:`: what the final response must look like.
extension PlanDecoder {
    /// Written into `expect`, in place: returned, the large value was copied and the original
    /// destroyed through its type's metadata, for every scenario.
    ///
    /// - Parameter request: the scenario's request as decoded, nil when it did not decode (what
    ///   is checked against it, `expect.grpc`, is then not).
    func decodeExpect(
        _ entry: FieldEntry<ScenarioKey>, context scenario: Context, enclosing: YAMLMapping, request: RequestParts?,
        into expect: inout Expectations
    ) {
        let context = scenario.part(.expect)
        guard let fields = fields(
            of: entry.value, site: Site(key: "expect", scenario), context: context, ownerMark: entry.keyMark,
            keys: Keys.expect, enclosing: enclosing)
        else { return }

        for entry in fields.entries {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .status:
                if let status = decodeStatus(entry.value, site: site()) { expect.status = status }
            case .headers:
                expect.headers = decodeHeaderExpectations(entry.value, site: site(), scenario: scenario)
            case .body:
                expect.body = decodeBodyMatchers(entry, scenario: scenario)
            case .certificate:
                expect.certificate = decodeCertificate(entry, scenario: scenario)
            case .time:
                expect.time = decodeTimeLimits(entry, scenario: scenario)
            case .httpVersion:
                expect.httpVersion = choice(entry.value, for: site(), among: ["1.0", "1.1", "2", "3"])?.value
            case .redirects:
                expect.redirects = integer(entry.value, for: site(), minimum: 0)
            case .finalURL:
                if let text = string(entry.value, for: site()) {
                    if let url = PlanURL.parse(text.value) {
                        expect.finalURL = url
                    } else {
                        report(at: text.mark, "expected an absolute http:// or https:// URL for \(site()), got \(text.quoted)")
                    }
                }
            case .dns:
                expect.dns = decodeDNSExpectation(entry, scenario: scenario)
            case .tls:
                expect.tls = decodeTLSExpectation(entry, scenario: scenario)
            case .edges:
                expect.edges = decodeEdgeRules(entry, scenario: scenario)
            case .grpc:
                expect.grpc = decodeGRPCExpectation(entry, scenario: scenario, request: request)
            }
        }
    }

    /// `expect.dns`: `within`, a domain map's name or a list of them.
    private func decodeDNSExpectation(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> DNSExpectation? {
        let context = scenario.part(.expectDNS)
        let errorsBefore = errors.count
        guard let fields = fields(
            of: entry.value, site: Site(key: "dns", scenario.part(.expect)), context: context, ownerMark: entry.keyMark,
            keys: Keys.dns)
        else { return nil }
        var expectation: DNSExpectation?
        var sawWithin = false
        for entry in fields.entries {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .within:
                sawWithin = true
                guard let items = items(entry.value, expected: "a domain map's name or a list of them", for: site()) else {
                    continue
                }
                guard !items.isEmpty else {
                    report(at: entry.value.mark, "expected at least one domain map for \(site()), got an empty list")
                    continue
                }
                let maps = items.compactMap { domainMapReference($0, site: site()) }
                if maps.count == items.count { expectation = DNSExpectation(within: maps) }
            }
        }
        // A misspelt `within` is the one error to show.
        if !sawWithin, errors.count == errorsBefore {
            report(at: entry.value.mark, "expected 'within' in \(Site(key: "dns", scenario.part(.expect)))")
        }
        return expectation
    }

    // MARK: Status

    private static let statusExpected = "a status code (100-599), a list of codes, or a class such as '2xx'"

    private func decodeStatus(_ node: YAMLNode, site: @autoclosure () -> Site) -> StatusExpectation? {
        switch node.content {
        case .mapping:
            report(at: node.mark, "expected \(Self.statusExpected) for \(site()), got a mapping")
            return nil
        case .sequence(let items):
            guard !items.isEmpty else {
                report(at: node.mark, "expected at least one status code for \(site()), got an empty list")
                return nil
            }
            var codes: [Int] = []
            codes.reserveCapacity(items.count)
            for item in items {
                if let code = statusCode(item, site: site(), allowClass: false) { codes.append(code) }
            }
            return codes.count == items.count ? .codes(codes) : nil
        case .scalar:
            guard let text = text(node, expected: Self.statusExpected, for: site()) else { return nil }
            if let hundreds = Self.statusClass(text.value) { return .classes([hundreds]) }
            return statusCode(node, site: site(), allowClass: true).map { .codes([$0]) }
        }
    }

    private func statusCode(_ node: YAMLNode, site: @autoclosure () -> Site, allowClass: Bool) -> Int? {
        let expected = allowClass ? Self.statusExpected : "a status code (100-599)"
        guard let text = text(node, expected: expected, for: site()) else { return nil }
        guard let code = Self.parseInteger(text.value), (100...599).contains(code) else {
            report(at: text.mark, "expected \(expected) for \(site()), got \(text.quoted)")
            return nil
        }
        guard text.isPlain else {
            report(at: text.mark, "expected \(expected) for \(site()), got the string \(text.quoted); write it without quotes")
            return nil
        }
        return code
    }

    /// `2xx` → 2 (also `2XX`); nil otherwise.
    static func statusClass(_ text: String) -> Int? {
        return text.withUTF8Bytes { utf8 in
            guard utf8.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(utf8[0]),
                  utf8[1] | 0x20 == UInt8(ascii: "x"), utf8[2] | 0x20 == UInt8(ascii: "x")
            else { return nil }
            return Int(utf8[0] - UInt8(ascii: "0"))
        }
    }

    // MARK: Matchers

    private func decodeHeaderExpectations(_ node: YAMLNode, site: @autoclosure () -> Site, scenario: Context) -> [HeaderExpectation] {
        guard let entries = namedEntries(of: node, site: site()) else { return [] }
        var result: [HeaderExpectation] = []
        result.reserveCapacity(entries.count)
        let context = scenario.part(.expectHeaders)
        for entry in entries {
            guard Self.isToken(entry.key) else {
                report(at: entry.keyMark, "invalid header name '\(entry.key)' \(context); \(Self.tokenRule)")
                continue
            }
            let matcherContext = scenario.part(.headerMatcher, named: entry.key)
            if let matcher = decodeMatcher(
                entry.value, site: Site(kind: "header", name: entry.key, context), context: matcherContext,
                ownerMark: entry.keyMark, allowAbsent: true)
            {
                result.append(HeaderExpectation(name: entry.key, matcher: matcher))
            }
        }
        return result
    }

    /// A scalar (equals) or a mapping with exactly one of equals, contains, matches (, absent).
    func decodeMatcher(
        _ node: YAMLNode, site: @autoclosure () -> Site, context: Context, ownerMark: YAMLMark, allowAbsent: Bool
    ) -> StringMatcher? {
        if case .scalar = node.content {
            return string(node, for: site()).map { .equals($0.value) }
        }
        let keys = allowAbsent ? Keys.headerMatcher : Keys.valueMatcher
        guard case .mapping = node.content else {
            report(at: node.mark, "expected a string or a matcher (\(keys.keySet.names.joined(separator: ", "))) for \(site()), got \(describe(node))")
            return nil
        }
        guard let fields = fields(of: node, site: site(), context: context, ownerMark: ownerMark, keys: keys) else { return nil }
        var entries = fields.entries.makeIterator()
        guard let entry = entries.next() else {
            report(at: node.mark, "expected one of \(keys.keySet.names.joined(separator: ", ")) \(context), got an empty mapping")
            return nil
        }
        if let second = entries.next() {
            report(
                at: second.keyMark,
                "a matcher takes exactly one of \(keys.keySet.names.joined(separator: ", ")) \(context); found '\(entry.key)' and '\(second.key)'"
            )
            return nil
        }
        func valueSite() -> Site { Site(key: entry.key, context) }
        switch entry.name {
        case .equals: return string(entry.value, for: valueSite()).map { .equals($0.value) }
        case .contains: return string(entry.value, for: valueSite()).map { .contains($0.value) }
        case .matches: return pattern(entry.value, for: valueSite()).map { .matches($0) }
        case .absent:
            guard let absent = bool(entry.value, for: valueSite()) else { return nil }
            guard absent else {
                report(at: entry.value.mark, "'absent' only takes true \(context); to require the header, use equals, contains or matches")
                return nil
            }
            return .absent
        }
    }

    /// A regular expression that compiles (each distinct pattern is compiled once per load).
    private func pattern(_ node: YAMLNode, for site: @autoclosure () -> Site) -> String? {
        guard let text = string(node, for: site()) else { return nil }
        let verdict: String?
        if let cached = regexVerdicts[text.value] {
            verdict = cached
        } else {
            do {
                _ = try Regex(text.value)
                verdict = nil
            } catch {
                verdict = Self.firstLine(of: "\(error)")
            }
            regexVerdicts[text.value] = .some(verdict)
        }
        if var verdict {
            // The compiler's message may quote the pattern: keep secrets out of it.
            if text.shown != text.value { verdict = "it does not compile" }
            report(at: text.mark, "invalid regular expression \(text.quoted) for \(site()): \(verdict)")
            return nil
        }
        return text.value
    }

    private static func firstLine(of text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
        return line.trimmingSpaces()
    }

    // MARK: Body

    private func decodeBodyMatchers(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> [BodyMatcher] {
        let context = scenario.part(.expectBody)
        guard let fields = fields(
            of: entry.value, site: Site(key: "body", scenario.part(.expect)), context: context,
            ownerMark: entry.keyMark, keys: Keys.body)
        else { return [] }
        var matchers: [BodyMatcher] = []
        for entry in fields.entries {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .equals: if let text = string(entry.value, for: site()) { matchers.append(.equals(text.value)) }
            case .contains: if let text = string(entry.value, for: site()) { matchers.append(.contains(text.value)) }
            case .matches: if let pattern = pattern(entry.value, for: site()) { matchers.append(.matches(pattern)) }
            case .sha256:
                guard let text = string(entry.value, for: site()) else { continue }
                let hex = text.value.lowercased()
                if hex.utf8.count == 64, hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) {
                    matchers.append(.sha256(hex))
                } else {
                    report(at: text.mark, "expected 64 hexadecimal digits for \(site()), got \(text.quoted)")
                }
            case .json:
                if let expectations = decodeJSONExpectations(entry.value, site: site(), context: scenario.part(.expectBodyJSON)) {
                    matchers.append(.json(expectations))
                }
            case .jsonExists:
                if let paths = decodeJSONPaths(entry.value, site: site(), context: scenario.part(.expectBodyJSONExists)) {
                    matchers.append(.jsonExists(paths))
                }
            }
        }
        return matchers
    }

    /// `json_exists`: a path or a list of them, each reported at its own place when it does not parse.
    private func decodeJSONPaths(_ node: YAMLNode, site: @autoclosure () -> Site, context: Context) -> [JSONPath]? {
        guard let items = items(node, expected: "a JSON path or a list of them", for: site()) else { return nil }
        guard !items.isEmpty else {
            report(at: node.mark, "expected at least one JSON path for \(site()), got an empty list")
            return nil
        }
        var paths: [JSONPath] = []
        paths.reserveCapacity(items.count)
        for item in items {
            guard let text = string(item, for: site()) else { continue }
            switch JSONPathParser.parse(text.value) {
            case .success(let path): paths.append(path)
            case .failure(let problem):
                report(at: text.mark, "invalid JSON path \(text.quoted) \(context): \(problem.message)")
            }
        }
        return paths.count == items.count ? paths : nil
    }

    private func decodeJSONExpectations(_ node: YAMLNode, site: @autoclosure () -> Site, context: Context) -> [JSONExpectation]? {
        guard let entries = namedEntries(of: node, site: site()) else { return nil }
        var result: [JSONExpectation] = []
        for entry in entries {
            let path: JSONPath
            switch jsonPath(entry.key) {
            case .success(let parsed): path = parsed
            case .failure(let problem):
                report(at: entry.keyMark, "invalid JSON path '\(entry.key)' \(context): \(problem.message)")
                continue
            }
            if let value = jsonValue(entry.value) { result.append(JSONExpectation(path: path, value: value)) }
        }
        return result.count == entries.count ? result : nil
    }

    /// `JSONPathParser.parse(text)`, parsed once per distinct text.
    private func jsonPath(_ text: String) -> Result<JSONPath, JSONPathParser.Problem> {
        if let parsed = jsonPaths[text] { return parsed }
        let parsed = JSONPathParser.parse(text)
        jsonPaths[text] = parsed
        return parsed
    }

    /// YAML → JSON: plain scalars typed by the YAML 1.2 core schema, quoted ones are strings.
    private func jsonValue(_ node: YAMLNode) -> JSONValue? {
        switch node.content {
        case .sequence(let items):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = jsonValue(item) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping(let pairs):
            var object: [String: JSONValue] = [:]
            for pair in pairs {
                guard case .scalar(let key, _) = pair.key.content else {
                    report(at: pair.key.mark, "expected a plain key in a JSON object, got \(pair.key.kindDescription)")
                    return nil
                }
                guard let value = jsonValue(pair.value) else { return nil }
                object[key] = value
            }
            return .object(object)
        case .scalar(let raw, let style):
            guard let substituted = substitute(raw, at: node.mark) else { return nil }
            let text = Text(
                value: substituted.value, shown: substituted.shown, mark: node.mark, style: style,
                forcedString: Text.isStringTag(node.tag))
            return Self.coreSchemaValue(text)
        }
    }

    static func coreSchemaValue(_ text: Text) -> JSONValue {
        guard text.isPlain else { return .string(text.value) }
        if text.isNull { return .null }
        // An integer first: none of the words below is one, and comparing with each of them
        // cost more than reading the number (most values in a plan's JSON checks are numbers).
        if let integer = parseInteger(text.value) { return .number(Double(integer)) }
        switch text.value {
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
            return .string(text.value)  // JSON has no infinities or NaN
        default:
            break
        }
        if isCoreFloat(text.value), let double = Double(text.value) { return .number(double) }
        return .string(text.value)
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?` (YAML 1.2 core float).
    static func isCoreFloat(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < utf8.count, utf8[index] >= 0x30, utf8[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
        var mantissa = digits()
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < utf8.count, utf8[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == utf8.count
    }

    // MARK: Certificate and time

    private func decodeCertificate(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> CertificateExpectation? {
        let context = scenario.part(.expectCertificate)
        guard let fields = fields(
            of: entry.value, site: Site(key: "certificate", scenario.part(.expect)), context: context,
            ownerMark: entry.keyMark, keys: Keys.certificate)
        else { return nil }
        var certificate = CertificateExpectation()
        for entry in fields.entries {
            func site() -> Site { Site(key: entry.key, context) }
            switch entry.name {
            case .minDaysLeft: certificate.minDaysLeft = integer(entry.value, for: site(), minimum: 0)
            case .issuer:
                certificate.issuer = decodeMatcher(
                    entry.value, site: site(), context: scenario.part(.expectCertificateIssuer),
                    ownerMark: entry.keyMark, allowAbsent: false)
            case .subject:
                certificate.subject = decodeMatcher(
                    entry.value, site: site(), context: scenario.part(.expectCertificateSubject),
                    ownerMark: entry.keyMark, allowAbsent: false)
            case .pins:
                certificate.pins = decodePins(entry.value, site: site())
            }
        }
        return certificate
    }

    private func decodeTimeLimits(_ entry: FieldEntry<ExpectKey>, scenario: Context) -> TimeLimits {
        let context = scenario.part(.expectTime)
        var limits = TimeLimits()
        guard let fields = fields(
            of: entry.value, site: Site(key: "time", scenario.part(.expect)), context: context,
            ownerMark: entry.keyMark, keys: Keys.time)
        else { return limits }
        for entry in fields.entries {
            let value = duration(entry.value, for: Site(key: entry.key, context))
            switch entry.name {
            case .total: limits.total = value
            case .connect: limits.connect = value
            case .tls: limits.tls = value
            case .firstByte: limits.firstByte = value
            }
        }
        return limits
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return String(slice)
    }
}
