import Foundation
import RunnerVocabulary

// The parts of a hop's and a result's evidence as the JSON report records them: each part's
// keys (sorted, as written), how it writes itself into a `RecordSink`, and how it reads back
// from the same keys. Writing and reading both switch over the keys.

extension CertificateSummary {
    /// The keys of a certificate's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case issuer
        case notAfter = "not_after"
        /// Lower-case hex; null when not read.
        case serialNumber = "serial_number"
        /// Lower-case hex of the certificate's SHA-256: its fingerprint; null when not read.
        case sha256
        case subject
        case subjectAltNames = "subject_alt_names"
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .issuer: sink.value(issuer)
            case .notAfter: sink.timestamp(notAfter)
            case .serialNumber: sink.word(serialNumber)
            case .sha256: sink.word(sha256Fingerprint)
            case .subject: sink.value(subject)
            case .subjectAltNames: sink.values(subjectAltNames)
            }
        }
    }

    /// The certificate read back; its `notBefore`, which the record does not keep, is nil.
    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> CertificateSummary {
        var subject = "", issuer = "", subjectAltNames: [String] = []
        var notAfter: Date?, serialNumber: String?, sha256Fingerprint: String?
        for key in RecordKey.allCases {
            switch key {
            case .issuer: issuer = try container.decode(String.self, forKey: key)
            case .notAfter: notAfter = try container.timestamp(key)
            case .serialNumber: serialNumber = try container.decodeIfPresent(String.self, forKey: key)
            case .sha256: sha256Fingerprint = try container.decodeIfPresent(String.self, forKey: key)
            case .subject: subject = try container.decode(String.self, forKey: key)
            case .subjectAltNames: subjectAltNames = try container.decode([String].self, forKey: key)
            }
        }
        return CertificateSummary(
            subject: subject, issuer: issuer, notAfter: notAfter, subjectAltNames: subjectAltNames,
            serialNumber: serialNumber, sha256Fingerprint: sha256Fingerprint)
    }
}

extension Timings {
    /// The keys of a hop's timings (milliseconds)'s record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case connectMs = "connect_ms"
        case firstByteMs = "first_byte_ms"
        case resolveMs = "resolve_ms"
        case tlsMs = "tls_ms"
        case totalMs = "total_ms"
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .connectMs: sink.milliseconds(connect)
            case .firstByteMs: sink.milliseconds(firstByte)
            case .resolveMs: sink.milliseconds(resolve)
            case .tlsMs: sink.milliseconds(tls)
            case .totalMs: sink.milliseconds(total)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> Timings {
        var timings = Timings()
        for key in RecordKey.allCases {
            let duration = try container.decodeIfPresent(Double.self, forKey: key).map(Duration.milliseconds)
            switch key {
            case .connectMs: timings.connect = duration
            case .firstByteMs: timings.firstByte = duration
            case .resolveMs: timings.resolve = duration
            case .tlsMs: timings.tls = duration
            case .totalMs: timings.total = duration
            }
        }
        return timings
    }
}

extension TLSSession {
    /// The keys of a TLS session's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case chain
        case chainVerified = "chain_verified"
        case cipher
        /// `"1.3"`; null for a version the runner does not know.
        case version
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .chain:
                sink.list(chain) { certificate, sink in certificate.record(into: &sink) }
            case .chainVerified: sink.flag(chainVerified)
            case .cipher: sink.word(cipher)
            case .version: sink.word(version?.rawValue)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> TLSSession {
        var session = TLSSession(version: nil, cipher: "", chainVerified: false, chain: [])
        for key in RecordKey.allCases {
            switch key {
            case .chain:
                session.chain = try container.list(key, keyedBy: ChainCertificate.RecordKey.self, ChainCertificate.read)
            case .chainVerified: session.chainVerified = try container.decode(Bool.self, forKey: key)
            case .cipher: session.cipher = try container.decode(String.self, forKey: key)
            case .version: session.version = try container.decodeIfPresent(String.self, forKey: key).flatMap(TLSVersion.init(rawValue:))
            }
        }
        return session
    }
}

extension ChainCertificate {
    /// The keys of a certificate of a chain's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case keyBits = "key_bits"
        case keyType = "key_type"
        case notAfter = "not_after"
        case pin, signature, subject
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .keyBits: sink.number(keyBits)
            case .keyType: sink.word(keyType)
            case .notAfter: sink.timestamp(notAfter)
            case .pin: sink.word(pin)
            case .signature: sink.word(signature)
            case .subject: sink.value(subject)
            }
        }
    }

    /// The certificate read back: a pin the runner wrote is `sha256/` and base64 of 32 bytes;
    /// anything else reads back empty, as does the signature's digest, which the record does not keep.
    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> ChainCertificate {
        var certificate = ChainCertificate(subject: "", spkiSHA256: [], keyType: "", keyBits: 0, signature: "", signatureDigest: "")
        var digest: [UInt8] = []
        for key in RecordKey.allCases {
            switch key {
            case .keyBits: certificate.keyBits = try container.decode(Int.self, forKey: key)
            case .keyType: certificate.keyType = try container.decode(String.self, forKey: key)
            case .notAfter: certificate.notAfter = try container.timestamp(key)
            case .pin:
                let pin = try container.decode(String.self, forKey: key)
                digest = Data(base64Encoded: String(pin.dropFirst("sha256/".count))).map(Array.init) ?? []
            case .signature: certificate.signature = try container.decode(String.self, forKey: key)
            case .subject: certificate.subject = try container.decode(String.self, forKey: key)
            }
        }
        return ChainCertificate(
            subject: certificate.subject, spkiSHA256: digest, keyType: certificate.keyType, keyBits: certificate.keyBits,
            signature: certificate.signature, signatureDigest: "", notAfter: certificate.notAfter)
    }
}

extension DNSLookupEvidence {
    /// The keys of a resolver's answer for one host's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case foreign, host, questions, resolver
        /// The maps checked against; null when `expect.dns` did not check this lookup (always
        /// written: null says "not checked" as plainly as a list says against what).
        case within
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .foreign: sink.words(foreign)
            case .host: sink.value(host)
            case .questions:
                sink.list(questions) { question, sink in question.record(into: &sink) }
            case .resolver: sink.word(resolver)
            case .within: sink.words(within)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> DNSLookupEvidence {
        var lookup = DNSLookupEvidence(resolver: "", host: "", questions: [])
        for key in RecordKey.allCases {
            switch key {
            case .foreign: lookup.foreign = try container.decode([String].self, forKey: key)
            case .host: lookup.host = try container.decode(String.self, forKey: key)
            case .questions:
                lookup.questions = try container.list(key, keyedBy: DNSQuestionEvidence.RecordKey.self, DNSQuestionEvidence.read)
            case .resolver: lookup.resolver = try container.decode(String.self, forKey: key)
            case .within: lookup.within = try container.decodeIfPresent([String].self, forKey: key)
            }
        }
        return lookup
    }
}

extension DNSQuestionEvidence {
    /// The keys of one DNS question's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case addresses, aliases
        case durationMs = "duration_ms"
        case problem, rcode, ttl, type
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .addresses: sink.words(addresses)
            case .aliases: sink.words(aliases)
            case .durationMs: sink.milliseconds(duration)
            case .problem: sink.word(problem)
            case .rcode: sink.word(rcode)
            case .ttl: sink.number(ttl)
            case .type: sink.word(type)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> DNSQuestionEvidence {
        var question = DNSQuestionEvidence(type: "", rcode: nil, addresses: [], ttl: nil, aliases: [], duration: .zero, problem: nil)
        for key in RecordKey.allCases {
            switch key {
            case .addresses: question.addresses = try container.decode([String].self, forKey: key)
            case .aliases: question.aliases = try container.decode([String].self, forKey: key)
            case .durationMs: question.duration = .milliseconds(try container.decode(Double.self, forKey: key))
            case .problem: question.problem = try container.decodeIfPresent(String.self, forKey: key)
            case .rcode: question.rcode = try container.decodeIfPresent(String.self, forKey: key)
            case .ttl: question.ttl = try container.decodeIfPresent(Int.self, forKey: key)
            case .type: question.type = try container.decode(String.self, forKey: key)
            }
        }
        return question
    }
}

extension CaptureRecord {
    /// The keys of a captured value's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case name, secret, value
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .name: sink.word(name)
            case .secret: sink.flag(value == nil)
            case .value: sink.value(value)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> CaptureRecord {
        var capture = CaptureRecord(name: "", value: nil)
        var secret = false
        for key in RecordKey.allCases {
            switch key {
            case .name: capture.name = try container.decode(String.self, forKey: key)
            case .secret: secret = try container.decode(Bool.self, forKey: key)
            case .value: capture.value = try container.decodeIfPresent(String.self, forKey: key)
            }
        }
        if secret { capture.value = nil }
        return capture
    }
}

extension ClientIdentity {
    /// The keys of a client's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        /// The labels as an object, `{}` for none.
        case labels
        case name
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .labels:
                sink.beginObject()
                for label in labels {
                    sink.key(label.name)
                    sink.value(label.value)
                }
                sink.endObject()
            case .name: sink.value(name)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> ClientIdentity {
        var client = ClientIdentity(name: "", labels: [])
        for key in RecordKey.allCases {
            switch key {
            case .labels:
                // Sorted by name, as the plan keeps them.
                client.labels = try container.decode([String: String].self, forKey: key)
                    .map { Label(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
            case .name: client.name = try container.decode(String.self, forKey: key)
            }
        }
        return client
    }
}

extension RetainedEvidence {
    /// The keys of a retained address's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        /// Seconds since it was last returned, when the result was checked.
        case ageS = "age_s"
        case client
        case firstReturned = "first_returned"
        case lastReturned = "last_returned"
        case map
        /// The map's `retain:`, in seconds.
        case windowS = "window_s"
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .ageS: sink.number(Int(age.components.seconds))
            case .client: sink.value(client)
            case .firstReturned: sink.timestamp(firstReturned)
            case .lastReturned: sink.timestamp(lastReturned)
            case .map: sink.value(map)
            case .windowS: sink.number(Int(window.components.seconds))
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> RetainedEvidence {
        var retained = RetainedEvidence(map: "", client: nil, firstReturned: Date(), lastReturned: Date(), age: .zero, window: .zero)
        for key in RecordKey.allCases {
            switch key {
            case .ageS: retained.age = .seconds(try container.decode(Int.self, forKey: key))
            case .client: retained.client = try container.decodeIfPresent(String.self, forKey: key)
            case .firstReturned: retained.firstReturned = try readDate(container, key)
            case .lastReturned: retained.lastReturned = try readDate(container, key)
            case .map: retained.map = try container.decode(String.self, forKey: key)
            case .windowS: retained.window = .seconds(try container.decode(Int.self, forKey: key))
            }
        }
        return retained
    }

    private static func readDate(_ container: KeyedDecodingContainer<RecordKey>, _ key: RecordKey) throws -> Date {
        guard let date = try container.timestamp(key) else { throw container.recordProblem(key, "a date is required") }
        return date
    }
}
