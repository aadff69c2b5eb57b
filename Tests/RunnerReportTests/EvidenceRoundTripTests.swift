import Foundation
import RunnerAppTrust
import RunnerResults
import RunnerVocabulary
import Testing

@testable import RunnerReport

/// Every fact of a result survives the JSON report and `runner merge`'s reading of it, or is
/// named here with the reason it does not: a fact added to `Evidence`, `HopEvidence` or what
/// they hold, but left out of the JSON record or of its inverse, fails this test. The fixture
/// must set every fact (no nil, no empty list), so a new one cannot hide behind a default.
@Suite("Evidence: every fact through the JSON report and back")
struct EvidenceRoundTripTests {
    /// Facts the JSON document does not hold, by path, and why.
    static let notInTheDocument: [String: String] = [
        "evidence.resolutionFallbackFrom": "only the metrics read it",
        "evidence.pinMatch": "only the metrics read it",
        "evidence.connection": "the curl line (hops[].curl) carries what it is for",
        "evidence.hops.requestHeaders": "the curl line carries them",
        "evidence.hops.requestBody": "the curl line carries it",
        "evidence.hops.connection.setsHostHeader": "the curl line carries it",
        "evidence.hops.connection.connectTo": "the curl line carries it",
        "evidence.hops.connection.tls": "the curl line carries it",
        "evidence.hops.certificate.notBefore": "the document has the expiry only",
        "evidence.hops.tls.chain.signatureDigest": "the document has the signature algorithm's name only",
        "predecessorOnly": "a run's bookkeeping, not a fact of the result",
        "evidence.appPolicies.policy.leafPins": "pins lists every pin; which must match the leaf is in the file at source",
        "evidence.appPolicies.policy.caPins": "pins lists every pin; which must match a CA is in the file at source",
        "evidence.appPolicies.policy.anchorsOverridingPins": "anchors lists them; overridePins is in the file at source",
        "evidence.appPolicies.policy.minimumRSAKeyBits": "ATS's key sizes are fixed; a key below them is a problem",
        "evidence.appPolicies.policy.minimumECKeyBits": "ATS's key sizes are fixed; a key below them is a problem",
        "evidence.appPolicies.policy.minimumSignatureHash": "ATS's signature floor is fixed; a weaker one is a problem",
    ]

    /// A result with every fact set.
    static var complete: ScenarioResult {
        var hop = Fixture.loginHop
        if let leaf = hop.certificate {
            hop.certificate = CertificateSummary(
                subject: leaf.subject, issuer: leaf.issuer, notBefore: Date(timeIntervalSince1970: 1_700_000_000),
                notAfter: leaf.notAfter, subjectAltNames: leaf.subjectAltNames, serialNumber: leaf.serialNumber,
                sha256Fingerprint: leaf.sha256Fingerprint)
        }
        hop.requestHeaders = [Header(name: "Authorization", value: "Bearer x")]
        hop.requestBody = .bytes(Data("{}".utf8))
        hop.connection.setsHostHeader = true
        hop.connection.connectTo = "api.example.com:443:203.0.113.10:443"
        hop.connection.tls = ConnectionTLS(
            caFile: "ca.pem", insecure: true, verifyName: "api.example.com",
            client: ClientTLS(
                minVersion: .v1_2, maxVersion: .v1_3, ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"],
                tls13Ciphers: ["TLS_AES_128_GCM_SHA256"], curves: ["X25519"], profile: .iosATS))
        hop.reproduction = "curl …"
        var evidence = Evidence(
            strategy: .sniResolve, ipSource: "static map 'builtin'", insecure: true, hops: [hop], notes: ["a note"])
        evidence.resolutionFallbackFrom = "httpdns"
        evidence.captured = [CaptureRecord(name: "token", value: "abc")]
        evidence.appPolicies = [AppPolicyEvidence(
            app: "shop-ios", host: "api.example.com", keyedOn: .address, key: "203.0.113.10",
            policy: AppTrustPolicy(
                platform: .ios, source: AppTrustSource(file: "Info.plist", line: 12), cleartextPermitted: true, anchors: ["system"],
                anchorsOverridingPins: ["system"], pins: ["AAAA"], leafPins: ["AAAA"], caPins: ["CCCC"], sha1Pins: ["BBBB"],
                pinsExpire: "2027-01-01", pinsEnforced: false, whyNotEnforced: .keyedOnAddress, tlsMinimum: "1.2",
                forwardSecrecy: true, minimumRSAKeyBits: 2048, minimumECKeyBits: 256, minimumSignatureHash: "SHA-256"),
            pinCheck: "no pin matched", refused: [.pins, .ats])]
        evidence.appWarnings = [Fixture.appWarning]
        evidence.retained = RetainedEvidence(
            map: "ali", client: "gd-mobile", firstReturned: Date(timeIntervalSince1970: 1_800_000_000),
            lastReturned: Date(timeIntervalSince1970: 1_800_003_600), age: .seconds(11_520), window: .seconds(86_400))
        // A real connect has a time or an error; both are set so the walk sees each field.
        evidence.pick = PickEvidence(
            map: "ali", host: "api.example.com", sdk: "alibaba-android",
            pickers: [PickEvidence.Picker(client: "gd-mobile", reason: "fastest connect, 0.3 ms")],
            elsewhere: [PickEvidence.Elsewhere(client: "sh-telecom", addresses: ["203.0.113.11"])],
            connects: [PickEvidence.RankingConnect(address: "203.0.113.10", port: 443, time: .microseconds(312), error: "connection refused")])
        evidence.grpc = GRPCAnswer(status: GRPCStatusCode(rawValue: 5), message: "unknown service 'payments'", serving: .serving)
        evidence.clients = [
            ClientIdentity(
                name: "gd-mobile",
                labels: [ClientIdentity.Label(name: "isp", value: "china-mobile"), ClientIdentity.Label(name: "region", value: "guangdong")])
        ]
        var lookup = DNSLookupEvidence(
            resolver: "127.0.0.8:53", host: "api.example.com",
            questions: [
                DNSQuestionEvidence(
                    type: "A", rcode: "NOERROR", addresses: ["203.0.113.10"], ttl: 30, aliases: ["edge.example.com"],
                    duration: .seconds(0.0004), problem: "truncated, asked again over TCP")
            ])
        lookup.within = ["builtin"]
        lookup.foreign = ["203.0.113.99"]
        evidence.dns = [lookup]
        evidence.dnsNotChecked = "expect.dns not checked"
        evidence.connection = ConnectionSettings(http: .http2, timeout: .seconds(5), connectTimeout: .seconds(2))
        evidence.pinMatch = true
        var result = ScenarioResult(
            scenario: "login", strategy: .sniResolve, ip: "203.0.113.10", tags: ["login"],
            outcome: .failed([Problem(subject: "status", expected: "200", actual: "500")]), evidence: evidence,
            duration: .seconds(0.125), earlierAttempts: [Attempt(outcome: .errored(TransferError(kind: .timeout, message: "slow")), duration: .seconds(1.5))])
        result.after = [ResultStep(scenario: "log in", strategy: .sniResolve, ip: "203.0.113.10")]
        result.predecessorOnly = true
        return result
    }

    @Test func everyFactIsSetInTheFixture() {
        var unset: [String] = []
        Self.walk(Self.complete, path: "") { path, value in
            if Self.isEmpty(value) { unset.append(path) }
        }
        #expect(unset == [], "set these in the fixture: \(unset)")
    }

    @Test func everyFactSurvivesTheJSONReportOrIsNamedWhyNot() throws {
        let original = Self.complete
        let position = ResultPosition(suite: 0, scenario: 0, slot: 0)
        var writer = JSONWriter()
        ResultRecord.write(
            original, at: position, plan: PlanRecord(file: "p.yaml", name: "p"), redactor: Redactor(secrets: []),
            encoder: JSONRecordEncoder(), to: &writer)
        writer.endDocument()
        let data = Data(writer.bytes)
        let readBack = try ScenarioResult(try JSONDecoder().decode(ResultRecord.self, from: data), field: "results[0]")
        var lost: [String] = []
        var kept: Set<String> = []
        Self.compare(original, readBack, path: "") { path, same in
            if same { kept.insert(path) } else if Self.excuse(for: path) == nil { lost.append(path) }
        }
        #expect(lost == [], "these facts do not survive the JSON report: add them to its record and its inverse")
        // A fact named as left out that does survive is named wrongly.
        let namedButKept = Self.notInTheDocument.keys.filter { named in
            kept.contains { $0 == named || $0.hasPrefix(named + ".") }
        }
        #expect(namedButKept == [], "these survive the JSON report after all: \(namedButKept)")
    }

    /// Why the fact at `path` (or the one holding it) is not in the document; nil when it must be.
    static func excuse(for path: String) -> String? {
        notInTheDocument.first { path == $0.key || path.hasPrefix($0.key + ".") }?.value
    }

    // MARK: Walking values

    /// Calls `visit` with each leaf of `value` (optionals unwrapped, collections element by
    /// element under the same path, structures by property).
    static func walk(_ value: Any, path: String, _ visit: (String, Any) -> Void) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return visit(path, value) }
            walk(wrapped, path: path, visit)
        case .collection, .set:
            if mirror.children.isEmpty { return visit(path, value) }
            for child in mirror.children { walk(child.value, path: path, visit) }
        case .struct, .class:
            guard !mirror.children.isEmpty, !isLeaf(value) else { return visit(path, value) }
            for child in mirror.children {
                walk(child.value, path: path.isEmpty ? (child.label ?? "") : path + "." + (child.label ?? ""), visit)
            }
        case .enum, .tuple, .dictionary, .foreignReference, nil:
            visit(path, value)
        @unknown default:
            visit(path, value)
        }
    }

    /// Compares `a` and `b` leaf by leaf, as `walk` reads them; `report` hears each leaf's path
    /// and whether the two agree there.
    static func compare(_ a: Any, _ b: Any, path: String, _ report: (String, Bool) -> Void) {
        var left: [(String, String)] = []
        var right: [String: [String]] = [:]
        walk(a, path: path) { left.append(($0, describe($1))) }
        walk(b, path: path) { right[$0, default: []].append(describe($1)) }
        var seen: [String: Int] = [:]
        for (leafPath, text) in left {
            let index = seen[leafPath, default: 0]
            seen[leafPath] = index + 1
            let other = right[leafPath].flatMap { index < $0.count ? $0[index] : nil }
            report(leafPath, other == text)
        }
    }

    /// Values compared whole: dates, data and durations (seconds rounded to the microsecond,
    /// which the document's milliseconds keep).
    static func isLeaf(_ value: Any) -> Bool {
        value is Date || value is Data || value is Duration || value is String
    }

    static func describe(_ value: Any) -> String {
        if let seconds = value as? Double { return String(format: "%.6f", seconds) }
        if let date = value as? Date { return String(Int(date.timeIntervalSince1970)) }
        return String(describing: value)
    }

    static func isEmpty(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.isEmpty }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set { return mirror.children.isEmpty }
        return false
    }
}
