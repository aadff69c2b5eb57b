import Foundation
import RunnerPlan

extension Drafting {
    /// Headers the transport writes itself, or that only describe one hop of one connection.
    static let transportHeaders: Set<String> = [
        "content-length", "connection", "host", "accept-encoding", "keep-alive", "proxy-connection",
        "transfer-encoding", "te", "upgrade", "trailer", "http2-settings",
    ]

    /// The request's fields, as the drafter edits them into plan values.
    struct RequestFields {
        var pathSegments: [PlanText]
        /// Each query pair's name (raw) and value (raw), nil when the URL has no `?`.
        var query: [(name: String, value: PlanText?)]?
        var headers: [DraftHeader]
        /// The body as text (when it is UTF-8), else its bytes alone.
        var bodyText: PlanText?
        var bodyBytes: Data?
        var bodyWasInline: Bool
    }

    /// Every host's recorded addresses, over all the requests kept (repeats and hops included).
    mutating func collectAddresses(_ requests: [CapturedRequest]) {
        for request in requests {
            guard !CapturedURL.isIPLiteral(request.url.host), let recorded = request.entry.serverIPAddress?.address, !recorded.isEmpty else { continue }
            // The canonical spelling, as the plan's loader reads it; a tool's text that is no address is noted.
            guard let address = IPAddress(recorded)?.text else {
                notes.append("address: \(labels.label(request)): '\(recorded)' (serverIPAddress) is not an IP address; left out of the map")
                continue
            }
            if let index = addresses.firstIndex(where: { $0.host == request.url.host }) {
                if !addresses[index].addresses.contains(address) { addresses[index].addresses.append(address) }
            } else {
                addresses.append(HostAddresses(host: request.url.host, addresses: [address]))
            }
        }
    }

    /// Makes the exchange's scenario and adds it (or notes why it cannot be written).
    mutating func add(_ exchange: CapturedExchange) {
        let first = exchange.first
        let request = first.entry.request
        let method = request.method.uppercased()
        var fields = requestFields(of: first)
        let index = scenarios.count
        let (after, flowNotes) = applyFlows(to: &fields, index: index)
        let host = first.url.host
        // The name comes from the path once its secrets are out of it: uses name a stand-in until then.
        let standIn = "\u{1}scenario \(index)\u{1}"
        applySecrets(to: &fields, host: host, scenario: standIn)

        let body: DraftBody?
        switch draftBody(fields, exchange: exchange) {
        case .success(let made): body = made
        case .failure(let problem):
            secrets.forgetUses(containing: standIn)
            notes.append("dropped: \(labels.list([first] + exchange.repeats)) (\(method) \(first.url.pathOnly)): \(problem.reason)")
            return
        }
        var url = PlanText("\(first.url.scheme)://\(first.url.authority)")
        for segment in fields.pathSegments {
            url.append(.literal("/"))
            for piece in segment.pieces { url.append(piece) }
        }
        if first.url.path.hasSuffix("/") && first.url.path != "/" || fields.pathSegments.isEmpty { url.append(.literal("/")) }
        if let query = fields.query {
            url.append(.literal("?"))
            for (position, pair) in query.enumerated() {
                if position > 0 { url.append(.literal("&")) }
                url.append(.literal(pair.name))
                if let value = pair.value {
                    url.append(.literal("="))
                    for piece in value.pieces { url.append(piece) }
                }
            }
        }
        if url.hasUnwritableDollar || fields.headers.contains(where: \.value.hasUnwritableDollar) || fields.bodyText?.hasUnwritableDollar == true {
            secrets.forgetUses(containing: standIn)
            notes.append("dropped: \(labels.label(first)) (\(method) \(first.url.pathOnly)): a '$' right before a secret or captured value, which a plan cannot write")
            return
        }

        let name = uniqueName("\(method) \(Self.shownPath(of: url))")
        secrets.renameUses(from: standIn, to: name)
        var comments: [String] = []
        if exchange.repeats.isEmpty, exchange.hops.count == 1 {
            comments.append("from \(labels.label(first))")
        } else if !exchange.repeats.isEmpty {
            let all = [first] + exchange.repeats
            comments.append("\(all.count) identical requests in the capture: \(labels.list(all))")
            notes.append("merged: '\(name)': \(labels.list(all)) (\(all.count) identical requests)")
        }
        if let rebuilt = first.body?.note {
            comments.append(rebuilt)
            notes.append("rebuilt: '\(name)': \(rebuilt)")
        }
        if exchange.hops.count > 1 {
            let finalStatus = exchange.final.response?.status ?? 0
            comments.append("a redirect chain folded: \(labels.chain(exchange.hops)), final status \(finalStatus)")
            notes.append("folded: '\(name)': \(labels.chain(exchange.hops)) (\(exchange.hops.count - 1) redirects, final status \(finalStatus))")
        }
        var scenario = DraftScenario(
            name: name, comments: comments, method: method, url: url, headers: fields.headers, body: body,
            followRedirects: nil, maxRedirects: nil, domains: nil, expect: expectation(of: exchange),
            captures: [], after: after.map { scenarios[$0].name }, host: host,
            hosts: exchange.hops.map(\.url.host).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        if exchange.hops.count == 1, let status = exchange.final.response?.status, (300..<400).contains(status), status != 304 {
            scenario.followRedirects = false
            scenario.comments.append("the app did not follow this redirect: its \(status) is what is expected")
        }
        if exchange.hops.count - 1 > 10 { scenario.maxRedirects = exchange.hops.count - 1 }
        let unmapped = scenario.hosts.filter { host in
            !CapturedURL.isIPLiteral(host) && !addresses.contains { $0.host == host }
        }
        if options.mapName == nil, !unmapped.isEmpty {
            scenario.domains = "system"
            scenario.comments.append("no address recorded for \(unmapped.joined(separator: ", ")): the machine's resolver finds it")
        }
        for note in flowNotes { notes.append(note.replacingOccurrences(of: "{scenario}", with: name)) }
        scenarios.append(scenario)
        // What the app sent itself is no server's value, when an answer echoes it (user-agent, a body).
        for hop in exchange.hops { sentText.append(Self.sentText(of: hop)) }
        responseValues += ResponseValue.values(
            of: exchange.final.response, hops: exchange.hops.compactMap(\.response), producer: index
        ).filter { value in !sentText.contains { $0.contains(value.value) } }
    }

    /// Everything a request carried, as recorded: its URL, header values and body text.
    static func sentText(of request: CapturedRequest) -> String {
        var text = request.entry.request.url
        for header in request.entry.request.headers { text += "\n" + header.value }
        if let body = request.body { text += "\n" + String(decoding: body.bytes, as: UTF8.self) }
        return text
    }

    // MARK: Fields

    func requestFields(of captured: CapturedRequest) -> RequestFields {
        let request = captured.entry.request
        var segments = captured.url.path.split(separator: "/", omittingEmptySubsequences: false).map { PlanText(String($0)) }
        if segments.first == PlanText("") { segments.removeFirst() }
        if segments.last == PlanText(""), !segments.isEmpty { segments.removeLast() }
        let query = captured.url.query.map { pairs in
            pairs.map { pair -> (name: String, value: PlanText?) in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? PlanText(String(parts[1])) : nil)
            }
        }
        let body = captured.body
        let text = body.flatMap { String(data: $0.bytes, encoding: .utf8) }
        return RequestFields(
            pathSegments: segments, query: query, headers: headers(of: request, bodyBytes: body?.bytes),
            bodyText: text.map { PlanText($0) }, bodyBytes: body?.bytes,
            bodyWasInline: body.map { RequestBody.isInlineText($0.bytes) } ?? false)
    }

    /// The headers as the app sent them, minus what the transport writes; `cookie` headers
    /// (HTTP/2 sends one per cookie) joined, other repeated names joined with `, `.
    func headers(of request: HARRequest, bodyBytes: Data?) -> [DraftHeader] {
        var result: [DraftHeader] = []
        var sawCookie = false
        for header in request.regularHeaders {
            let lower = header.name.lowercased()
            guard !Self.transportHeaders.contains(lower) else { continue }
            if lower == "content-encoding", let bytes = bodyBytes, !RequestBody.looksCompressed(bytes) { continue }
            guard Self.isToken(header.name), !header.value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { continue }
            if let index = result.firstIndex(where: { $0.name.lowercased() == lower }) {
                let separator = lower == "cookie" ? "; " : ", "
                result[index].value = PlanText((result[index].value.literal ?? "") + separator + header.value)
            } else {
                result.append(DraftHeader(name: header.name, value: PlanText(header.value)))
            }
            if lower == "cookie" { sawCookie = true }
        }
        if !sawCookie, !request.cookies.isEmpty {
            result.append(DraftHeader(name: "cookie", value: PlanText(request.cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))))
        }
        return result
    }

    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }

    // MARK: Body

    func draftBody(_ fields: RequestFields, exchange: CapturedExchange) -> Result<DraftBody?, BodyProblem> {
        guard let bytes = fields.bodyBytes else { return .success(nil) }
        if let text = fields.bodyText, fields.bodyWasInline || text.hasReferences {
            return .success(.text(text))
        }
        if fields.bodyText == nil, JWTShape.ranges(in: String(decoding: bytes, as: UTF8.self)).count > 0 {
            return .failure(BodyProblem("a token inside a binary body, which a plan cannot carry without it in clear; write this scenario by hand"))
        }
        guard let folder = options.bodiesFolder else { return .success(.base64(bytes)) }
        let mediaType = RequestBody.header("content-type", in: exchange.first.entry.request) ?? exchange.first.entry.request.body?.mimeType
        let slug = Self.slug("\(exchange.first.entry.request.method) \(exchange.first.url.path)")
        let name = "\(folder)/\(String(format: "%03d", scenarios.count + 1))-\(slug).\(RequestBody.fileExtension(mediaType: mediaType))"
        return .success(.file(name: name, bytes: bytes))
    }

    struct BodyProblem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: Expectations

    func expectation(of exchange: CapturedExchange) -> DraftExpectation {
        let response = exchange.final.response
        let status = response?.status ?? 200
        var mediaType: String?
        if let contentType = response?.regularHeaders.first(where: { $0.name.lowercased() == "content-type" })?.value ?? response?.content?.mimeType {
            let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if type.contains("/"), !type.contains(where: { $0.isWhitespace || $0 == "\"" }) { mediaType = type }
        }
        var keys: [String] = []
        if let bytes = response?.content?.bytes, let document = JSONDocument(parsing: bytes), case .object(let members) = document.root {
            keys = members.keys.sorted().compactMap { key in JSONKeyPath.member(key).map { "$" + $0 } }
        }
        return DraftExpectation(statuses: status == 304 ? [200, 304] : [status], mediaType: mediaType, jsonKeys: keys)
    }

    // MARK: Names

    /// `POST /session/login`, then `POST /session/login (2)`…: readable, unique in the plan.
    mutating func uniqueName(_ base: String) -> String {
        let trimmed = base.count > 80 ? String(base.prefix(79)) + "…" : base
        let name = firstFreeName(trimmed, taken: usedNames) { "\(trimmed) (\($0))" }
        usedNames.insert(name)
        return name
    }

    /// The URL's path as names show it: references as `{NAME}`, no query.
    static func shownPath(of url: PlanText) -> String {
        let shown = url.shown
        guard let schemeEnd = shown.range(of: "://") else { return shown }
        let rest = shown[schemeEnd.upperBound...]
        let path = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        return String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
    }

    static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(40))
    }
}

extension CapturedURL {
    /// An address used as the URL's host: the plan takes it without a map.
    static func isIPLiteral(_ host: String) -> Bool { IPAddress(host) != nil }
}
