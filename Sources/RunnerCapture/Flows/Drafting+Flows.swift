import RunnerVocabulary

extension Drafting {
    /// Where a later request sends a value an earlier answer carried: the value becomes a
    /// capture of that earlier scenario and `${capture:NAME}` here, and this scenario runs
    /// `after` it. Only values of one flow can be passed on: the latest scenario whose values
    /// are used, and those it runs after. Returns that scenario and the notes.
    mutating func applyFlows(to fields: inout RequestFields, index: Int) -> (after: Int?, notes: [String]) {
        let cookieNames = cookiePairs(of: fields)
        let used = responseValues.filter { value in
            guard value.producer < index else { return false }
            if case .cookie(let name) = value.source {
                return cookieNames.contains { $0.name == name && $0.value == value.value }
            }
            return occurs(value.value, in: fields)
        }
        guard let latest = used.map(\.producer).max() else { return (nil, []) }
        let flow = chain(from: latest)
        var notes: [String] = []
        var left: Set<String> = []
        var taken: Set<String> = []
        // Longest first: a value inside a longer one is not cut out of it; a value two answers
        // carried is taken from the first on the flow.
        for value in used.sorted(by: { ($0.value.count, -$0.producer) > ($1.value.count, -$1.producer) }) {
            guard flow.contains(value.producer) else {
                left.insert(scenarios[value.producer].name)
                continue
            }
            guard !taken.contains(value.value) else { continue }
            taken.insert(value.value)
            switch value.source {
            case .cookie(let name):
                dropCookie(name, from: &fields)
                notes.append("flow: '{scenario}' after '\(scenarios[latest].name)': cookie \(name) from '\(scenarios[value.producer].name)' goes by the cookie jar")
            case .json(let path):
                let capture = captureName(for: value, source: .json(path))
                let places = replace(value.value, with: capture, in: &fields)
                markSecretIfSentAsOne(capture, places: places, producer: value.producer)
                notes.append("flow: '{scenario}' after '\(scenarios[latest].name)': \(capture) (\(path) of '\(scenarios[value.producer].name)') in \(places.joined(separator: ", "))")
            case .header(let header):
                let capture = captureName(for: value, source: .header(header))
                let places = replace(value.value, with: capture, in: &fields)
                markSecretIfSentAsOne(capture, places: places, producer: value.producer)
                notes.append("flow: '{scenario}' after '\(scenarios[latest].name)': \(capture) (header \(header) of '\(scenarios[value.producer].name)') in \(places.joined(separator: ", "))")
            }
        }
        for producer in left.sorted() {
            notes.append("flow: '{scenario}' sends a value of '\(producer)''s answer, not on its flow: left as recorded")
        }
        return (latest, notes)
    }

    /// A value sent as a credential (`authorization`, a secret-named field) is masked as one.
    private mutating func markSecretIfSentAsOne(_ capture: String, places: [String], producer: Int) {
        let sentAsSecret = places.contains { place in
            place.hasPrefix("header ") && SecretField.isSecretHeader(String(place.dropFirst("header ".count)))
                || place.hasPrefix("query parameter ") && SecretField.isSecret(name: String(place.dropFirst("query parameter ".count)))
        }
        guard sentAsSecret, let index = scenarios[producer].captures.firstIndex(where: { $0.name == capture }) else { return }
        scenarios[producer].captures[index].secret = true
    }

    /// The scenario and every one it runs after.
    private func chain(from index: Int) -> Set<Int> {
        var members: Set<Int> = [index]
        var current = index
        while let after = scenarios[current].after, let previous = scenarios.firstIndex(where: { $0.name == after }) {
            members.insert(previous)
            current = previous
        }
        return members
    }

    private func cookiePairs(of fields: RequestFields) -> [(name: String, value: String)] {
        guard let cookie = fields.headers.first(where: { $0.name.lowercased() == "cookie" })?.value.literal else { return [] }
        return cookie.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    private func dropCookie(_ name: String, from fields: inout RequestFields) {
        guard let index = fields.headers.firstIndex(where: { $0.name.lowercased() == "cookie" }),
            let cookie = fields.headers[index].value.literal
        else { return }
        let kept = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { pair in
            pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } != name
        }
        if kept.isEmpty {
            fields.headers.remove(at: index)
        } else {
            fields.headers[index].value = PlanText(kept.joined(separator: "; "))
        }
    }

    private func occurs(_ value: String, in fields: RequestFields) -> Bool {
        fields.pathSegments.contains { $0.literal == value || $0.literal == PercentEncodedForms.encoded(value) }
            || (fields.query ?? []).contains { pair in pair.value.map { CapturedURL.decoded($0.literal ?? "") == value } ?? false }
            || fields.headers.contains { $0.name.lowercased() != "cookie" && ($0.value.literal ?? "").contains(value) }
            || (fields.bodyText?.literal ?? "").contains(value)
    }

    /// Puts `${capture:NAME}` where `value` was; returns where, for the note.
    private func replace(_ value: String, with capture: String, in fields: inout RequestFields) -> [String] {
        var places: [String] = []
        for index in fields.pathSegments.indices {
            if fields.pathSegments[index].literal == value || fields.pathSegments[index].literal == PercentEncodedForms.encoded(value) {
                fields.pathSegments[index] = PlanText(pieces: [.capture(capture)])
                if !places.contains("the URL's path") { places.append("the URL's path") }
            }
        }
        if var query = fields.query {
            for index in query.indices {
                guard let raw = query[index].value?.literal, CapturedURL.decoded(raw) == value else { continue }
                query[index].value = PlanText(pieces: [.capture(capture)])
                places.append("query parameter \(CapturedURL.decoded(query[index].name))")
            }
            fields.query = query
        }
        for index in fields.headers.indices where fields.headers[index].name.lowercased() != "cookie" {
            if fields.headers[index].value.replace(value, with: .capture(capture)) {
                places.append("header \(fields.headers[index].name)")
            }
        }
        if fields.bodyText?.replace(value, with: .capture(capture)) == true { places.append("the body") }
        return places
    }

    /// The capture that takes `value` from its scenario's answer, made once per value.
    private mutating func captureName(for value: ResponseValue, source: DraftCapture.Source) -> String {
        let secret = SecretField.isSecret(name: value.fieldName) || !JWTShape.ranges(in: value.value).isEmpty
        if let index = scenarios[value.producer].captures.firstIndex(where: { $0.source == source }) {
            return scenarios[value.producer].captures[index].name
        }
        var base = ""
        for character in value.fieldName {
            base.append(character.isASCII && (character.isLetter || character.isNumber) ? character : "_")
        }
        if base.isEmpty || base.first?.isNumber == true { base = "value_" + base }
        let name = firstFreeName(base, taken: usedCaptureNames) { "\(base)_\($0)" }
        usedCaptureNames.insert(name)
        scenarios[value.producer].captures.append(DraftCapture(name: name, source: source, secret: secret))
        return name
    }
}

/// A value as a URL's path carries it.
enum PercentEncodedForms {
    static func encoded(_ value: String) -> String {
        PercentEncoding.encode(value, keeping: .unreserved)
    }
}
