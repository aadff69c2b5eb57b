import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// What came back for one result, reduced to what `expect` can check.
package struct ObservedResponse: Sendable {
    /// Status of the final response.
    package var status: Int
    /// Headers of the final response, in order, names as sent.
    package var headers: [Header]
    /// The captured prefix of the body (at most `max_body` bytes).
    package var body: Data
    /// Length and SHA-256 (lower-case hex) of the whole body, not just the captured prefix; the
    /// digest is nil when the transfer did not compute it (no `body: {sha256: …}` expectation
    /// and no output of the run that shows it).
    package var bodyLength: Int
    package var bodySHA256: String?
    /// `1.0`, `1.1`, `2` or `3`.
    package var httpVersion: String?
    /// The final hop's peer certificate; nil on plain HTTP.
    package var certificate: CertificateSummary?
    /// The final hop's TLS session (version, cipher, chain); nil on plain HTTP.
    package var tls: TLSSession?
    /// Timings of the final hop (its connect, tls and first byte).
    package var timings: Timings
    /// Seconds for the whole result, every hop included.
    package var totalTime: Duration
    /// Redirect hops followed before the final response.
    package var redirects: Int
    /// The final response's URL with the original host.
    package var finalURL: String?
    /// Header fields sent after the body (HTTP/2 trailers: a gRPC call's status).
    package var trailers: [Header] = []

    /// A response from its parts.
    package init(
        status: Int, headers: [Header] = [], body: Data = Data(),
        bodyLength: Int? = nil, bodySHA256: String? = nil, httpVersion: String? = nil,
        certificate: CertificateSummary? = nil, tls: TLSSession? = nil, timings: Timings = Timings(),
        totalTime: Duration = .zero, redirects: Int = 0, finalURL: String? = nil, trailers: [Header] = []
    ) {
        self.tls = tls
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength ?? body.count
        self.bodySHA256 = bodySHA256
        self.httpVersion = httpVersion
        self.certificate = certificate
        self.timings = timings
        self.totalTime = totalTime
        self.redirects = redirects
        self.finalURL = finalURL
        self.trailers = trailers
    }

    /// The final hop's transfer, plus what only the whole result knows: its total time
    /// (all hops) and the number of redirects followed.
    package init(
        response: TransferResponse, evidence: TransferEvidence, totalTime: Duration, redirects: Int, finalURL: String? = nil
    ) {
        self.init(
            status: response.status, headers: response.headers, body: response.body,
            bodyLength: response.bodyLength, bodySHA256: response.bodySHA256,
            httpVersion: evidence.httpVersion, certificate: evidence.certificate, tls: evidence.tls,
            timings: evidence.timings, totalTime: totalTime, redirects: redirects, finalURL: finalURL,
            trailers: response.trailers)
    }

    /// True when only a prefix of the body was kept.
    package var bodyTruncated: Bool { bodyLength > body.count }
}

/// Checks a response against a scenario's `expect` block: pure, no I/O.
package enum ExpectationChecker {
    /// Every unmet expectation, in this order: status, headers (plan order), body matchers
    /// (plan order), certificate (pins last), the TLS `profile`'s leaf rules, `expect.tls`,
    /// time, http_version, redirects. Empty when all hold.
    /// `redactor` masks the run's secrets in what the problems quote, before any cut.
    package static func problems(
        for expect: Expectations, observed: ObservedResponse, now: Date, profile: TLSProfile? = nil,
        redactor: Redactor? = nil
    ) -> [Problem] {
        let context = Context(observed: observed, redactor: redactor)
        var problems: [Problem] = []
        problems.add(statusProblems(expect.status, observed: observed))
        for header in expect.headers {
            problems.add(headerProblems(header, observed: observed, context: context))
        }
        for matcher in expect.body {
            problems.add(bodyProblems(matcher, context: context))
        }
        if let certificate = expect.certificate {
            problems.add(certificateProblems(certificate, observed: observed, now: now, context: context))
            if let pins = certificate.pins { problems.add(pinProblems(pins, observed: observed)) }
        }
        if let profile { problems.add(profileProblems(profile, observed: observed)) }
        if let tls = expect.tls { problems.add(tlsProblems(tls, observed: observed, context: context)) }
        problems.add(timeProblems(expect.time, observed: observed))
        if let version = expect.httpVersion {
            problems.add(httpVersionProblems(version, observed: observed))
        }
        if let redirects = expect.redirects, redirects != observed.redirects {
            problems.append(Problem(subject: "redirects", expected: "\(redirects)", actual: "\(observed.redirects)"))
        }
        if let finalURL = expect.finalURL, finalURL.description != observed.finalURL {
            problems.append(Problem(
                subject: "final_url", expected: finalURL.description, actual: observed.finalURL ?? "unknown"))
        }
        return problems
    }

    // MARK: Status

    private static func statusProblems(_ expectation: StatusExpectation, observed: ObservedResponse) -> [Problem] {
        // The expected text is written only for a problem: most results meet their status.
        let expected: String
        switch expectation {
        case .codes(let codes):
            guard !codes.contains(observed.status) else { return [] }
            expected = codes.map(String.init).joined(separator: ", ")
        case .classes(let classes):
            guard !classes.contains(observed.status / 100) else { return [] }
            expected = classes.map { "\($0)xx" }.joined(separator: ", ")
        }
        return [Problem(subject: "status", expected: expected, actual: "\(observed.status)")]
    }

    // MARK: Headers

    private static func headerProblems(
        _ expectation: HeaderExpectation, observed: ObservedResponse, context: Context
    ) -> [Problem] {
        // Field values exclude surrounding whitespace (RFC 9110 §5.5), whatever the transport kept.
        let values = observed.headers
            .filter { HeaderName.equal($0.name, expectation.name) }
            .map { $0.value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
        let subject = "header \(expectation.name)"
        let expected = VerdictText.describe(expectation.matcher, masking: context.redactor)

        if case .absent = expectation.matcher {
            return values.isEmpty
                ? [] : [Problem(subject: subject, expected: expected, actual: VerdictText.quotedList(values, masking: context.redactor))]
        }
        guard !values.isEmpty else {
            return [Problem(subject: subject, expected: expected, actual: "absent")]
        }
        // Several values (repeated header): any one satisfying the matcher is enough.
        for value in values {
            switch context.evaluate(expectation.matcher, on: value) {
            case .met: return []
            case .unmet: continue
            case .failed(let reason): return [Problem(subject: subject, expected: expected, actual: reason)]
            }
        }
        return [Problem(subject: subject, expected: expected, actual: VerdictText.quotedList(values, masking: context.redactor))]
    }

    // MARK: Body

    private static func bodyProblems(_ matcher: BodyMatcher, context: Context) -> [Problem] {
        let observed = context.observed
        switch matcher {
        case .equals(let expected):
            // Byte-exact, and never "equal" when part of the body was not kept.
            let met = !observed.bodyTruncated && observed.body == Data(expected.utf8)
            return met ? [] : [bodyProblem(expected: "equals \(VerdictText.quoted(expected, masking: context.redactor))", context: context)]

        case .contains(let needle):
            // Byte-exact search in the captured prefix: no decoding, no Unicode equivalence.
            let met = needle.isEmpty || observed.body.range(of: Data(needle.utf8)) != nil
            return met ? [] : [bodyProblem(expected: "contains \(VerdictText.quoted(needle, masking: context.redactor))", context: context)]

        case .matches(let pattern):
            return bodyStringProblems(.matches(pattern), context: context)

        case .sha256(let expected):
            // Against the hash of the whole body, counted while streaming, not the prefix.
            guard observed.bodySHA256?.lowercased() != expected.lowercased() else { return [] }
            return [
                Problem(
                    subject: "body", expected: "sha256 \(expected)",
                    actual: "sha256 \(observed.bodySHA256 ?? "not computed") (\(VerdictText.byteCount(observed.bodyLength)))")
            ]

        case .json(let expectations):
            guard let document = context.json else { return [notJSONProblem(context: context)] }
            return expectations.compactMap { expectation in
                let found = document.value(at: expectation.path)
                guard found != expectation.value else { return nil }
                return Problem(
                    subject: "body json \(expectation.path.text)",
                    expected: VerdictText.json(expectation.value),
                    actual: found.map { VerdictText.jsonExcerpt($0, masking: context.redactor) } ?? "no such path")
            }

        case .jsonExists(let paths):
            guard let document = context.json else { return [notJSONProblem(context: context)] }
            // A path holding null exists: `value(at:)` gives `.null` for it and nil only when absent.
            return paths.compactMap { path in
                guard document.value(at: path) == nil else { return nil }
                return Problem(subject: "body json \(path.text)", expected: "exists", actual: "no such path")
            }
        }
    }

    /// One problem for the whole body when a JSON matcher finds no JSON to look in.
    private static func notJSONProblem(context: Context) -> Problem {
        Problem(subject: "body json", expected: "a JSON document", actual: "not JSON: \(context.bodyExcerpt)")
    }

    private static func bodyStringProblems(_ matcher: StringMatcher, context: Context) -> [Problem] {
        let expected = VerdictText.describe(matcher, masking: context.redactor)
        switch context.evaluate(matcher, on: context.bodyText) {
        case .met: return []
        case .unmet: return [bodyProblem(expected: expected, context: context)]
        case .failed(let reason): return [Problem(subject: "body", expected: expected, actual: reason)]
        }
    }

    private static func bodyProblem(expected: String, context: Context) -> Problem {
        Problem(subject: "body", expected: expected, actual: context.bodyExcerpt)
    }

    // MARK: Certificate

    private static func certificateProblems(
        _ expectation: CertificateExpectation, observed: ObservedResponse, now: Date, context: Context
    ) -> [Problem] {
        var problems: [Problem] = []
        let noCertificate = "no certificate (not a TLS connection)"

        if let minimum = expectation.minDaysLeft {
            let subject = "certificate days left"
            let expected = "≥ \(minimum)"
            if let certificate = observed.certificate {
                if let notAfter = certificate.notAfter {
                    let days = Int((notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
                    if days < minimum {
                        let verb = notAfter <= now ? "expired" : "expires"
                        problems.append(
                            Problem(
                                subject: subject, expected: expected,
                                actual: "\(days) (\(verb) \(notAfter.ISO8601Format()))"))
                    }
                } else {
                    problems.append(
                        Problem(subject: subject, expected: expected, actual: "unknown (the certificate has no expiry date)"))
                }
            } else {
                problems.append(Problem(subject: subject, expected: expected, actual: noCertificate))
            }
        }

        // Most certificate checks are pins or days left alone: no list of name checks made for them.
        guard expectation.issuer != nil || expectation.subject != nil else { return problems }
        let names: [(subject: String, matcher: StringMatcher?, field: KeyPath<CertificateSummary, String>)] = [
            ("certificate issuer", expectation.issuer, \.issuer),
            ("certificate subject", expectation.subject, \.subject),
        ]
        for name in names {
            guard let matcher = name.matcher else { continue }
            let expected = VerdictText.describe(matcher, masking: context.redactor)
            guard let certificate = observed.certificate else {
                problems.append(Problem(subject: name.subject, expected: expected, actual: noCertificate))
                continue
            }
            let value = certificate[keyPath: name.field]
            let outcome: Context.Outcome =
                if case .absent = matcher {
                    value.isEmpty ? .met : .unmet
                } else {
                    context.evaluate(matcher, on: value)
                }
            switch outcome {
            case .met: break
            case .unmet:
                problems.append(Problem(subject: name.subject, expected: expected, actual: VerdictText.quoted(value, masking: context.redactor)))
            case .failed(let reason):
                problems.append(Problem(subject: name.subject, expected: expected, actual: reason))
            }
        }
        return problems
    }

    // MARK: Time

    private static func timeProblems(_ limits: TimeLimits, observed: ObservedResponse) -> [Problem] {
        // Most scenarios set no limit: no list of phases made for every result.
        guard !limits.isEmpty else { return [] }
        // A phase that did not happen (tls on plain HTTP or a reused connection) took no time.
        let phases: [(name: String, limit: Duration?, took: Duration)] = [
            ("total", limits.total, observed.totalTime),
            ("connect", limits.connect, observed.timings.connect ?? .zero),
            ("tls", limits.tls, observed.timings.tls ?? .zero),
            ("first_byte", limits.firstByte, observed.timings.firstByte ?? .zero),
        ]
        return phases.compactMap { phase in
            guard let limit = phase.limit, phase.took > limit else { return nil }
            let expected = VerdictText.limit(limit)
            // Rounding must not make an over-limit time read as the limit itself (`801 ms`, not `800 ms`).
            var actual = VerdictText.milliseconds(phase.took)
            var digits = phase.took < .milliseconds(10) ? 1 : 0
            while actual == expected && digits < 3 {
                digits += 1
                actual = VerdictText.milliseconds(phase.took, fractionDigits: digits)
            }
            return Problem(subject: "time \(phase.name)", expected: "≤ \(expected)", actual: actual)
        }
    }

    // MARK: HTTP version

    private static func httpVersionProblems(_ expected: String, observed: ObservedResponse) -> [Problem] {
        guard let actual = observed.httpVersion else {
            return [Problem(subject: "http_version", expected: expected, actual: "unknown")]
        }
        guard normalizedVersion(actual) != normalizedVersion(expected) else { return [] }
        return [Problem(subject: "http_version", expected: expected, actual: actual)]
    }

    /// `HTTP/2`, `2.0` and `2` are the same version.
    private static func normalizedVersion(_ version: String) -> String {
        var text = version.trimmingCharacters(in: .whitespaces)
        if text.uppercased().hasPrefix("HTTP/") { text.removeFirst(5) }
        if text == "2.0" || text == "3.0" { text.removeLast(2) }
        return text
    }
}

extension ExpectationChecker {
    /// Per-check state: the body decoded and parsed at most once, regexes compiled at most once.
    /// (`Regex` is not Sendable, so the cache lives for one check rather than process-wide.)
    final class Context {
        enum Outcome {
            case met
            case unmet
            /// The matcher itself could not run (a pattern that does not compile).
            case failed(String)
        }

        let observed: ObservedResponse
        /// The run's secrets, masked in every quote before it is cut.
        let redactor: Redactor?

        init(observed: ObservedResponse, redactor: Redactor?) {
            self.observed = observed
            self.redactor = redactor
        }

        /// The captured prefix as text; invalid UTF-8 becomes U+FFFD.
        lazy var bodyText: String = String(decoding: observed.body, as: UTF8.self)

        lazy var json: JSONDocument? = JSONDocument(parsing: observed.body)

        /// `'{"error":"nope"}' (16 bytes)`, noting when only a prefix was checked.
        lazy var bodyExcerpt: String = {
            var size = VerdictText.byteCount(observed.bodyLength)
            if observed.bodyTruncated {
                size += "; only the first \(VerdictText.byteCount(observed.body.count)) were checked"
            }
            return "\(VerdictText.quoted(bodyText, masking: redactor)) (\(size))"
        }()

        private var regexes: [String: Result<Regex<AnyRegexOutput>, RegexFailure>] = [:]

        struct RegexFailure: Error {
            var message: String
        }

        func evaluate(_ matcher: StringMatcher, on text: String) -> Outcome {
            switch matcher {
            case .equals(let expected):
                return text == expected ? .met : .unmet
            case .contains(let needle):
                // Literal (code-unit) search; Foundation finds no empty needle, yet every text holds one.
                return needle.isEmpty || text.range(of: needle, options: .literal) != nil ? .met : .unmet
            case .matches(let pattern):
                switch regex(pattern) {
                case .failure(let failure):
                    return .failed("invalid regular expression: \(failure.message)")
                case .success(let regex):
                    do {
                        return try regex.firstMatch(in: text) != nil ? .met : .unmet
                    } catch {
                        return .failed("regular expression failed: \(error)")
                    }
                }
            case .absent:
                // Callers decide presence themselves; a value that exists is not absent.
                return .unmet
            }
        }

        private func regex(_ pattern: String) -> Result<Regex<AnyRegexOutput>, RegexFailure> {
            if let cached = regexes[pattern] { return cached }
            let compiled: Result<Regex<AnyRegexOutput>, RegexFailure>
            do {
                // Unicode-scalar semantics, as in other regex engines: `.` is one scalar, so
                // `\r\n` is two characters rather than one grapheme.
                compiled = .success(try Regex(pattern).matchingSemantics(.unicodeScalar))
            } catch {
                compiled = .failure(RegexFailure(message: "\(error)"))
            }
            regexes[pattern] = compiled
            return compiled
        }
    }
}

extension [Problem] {
    /// Appends `more` unless it is empty: most checks of a passing result find nothing, and an
    /// append of an empty array still costs a call into the generic path.
    fileprivate mutating func add(_ more: [Problem]) {
        if !more.isEmpty { append(contentsOf: more) }
    }
}
