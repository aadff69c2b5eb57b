import RunnerVocabulary

extension HopEvidence {
    /// The hop's facts, in the order every report shows them (the console and JUnit's lines,
    /// the HTML report's definition list): the one place a hop fact is declared for them.
    @inlinable
    public func describe<Sink: EvidenceSink & ~Copyable>(into sink: inout Sink) {
        sink.fact("url sent", connection.urlSent)
        sink.fact("host", connection.hostHeader)
        sink.fact("sni", connection.sni, or: "none")
        sink.fact("pinned ip", connection.pinnedIP, or: "none (system resolver)")
        // One value: a secret could span the address and the port.
        sink.fact("connected", connectedAddress, or: "not connected")
        // Derived, so one line here is the whole of it: every report that walks this list shows it.
        if let family = connectedFamily {
            sink.beginFact("address family")
            sink.literal(family)
            sink.endFact()
        }
        sink.fact("http version", httpVersion, or: "none")
        sink.beginFact("status")
        if let status { sink.number(status) } else { sink.literal("no response") }
        sink.endFact()
        sink.certificate(certificate)
        if let tls { sink.tls(tls) }
        sink.beginFact("timings")
        var shown = false
        for (name, value) in timings.named {
            guard let value else { continue }
            if shown { sink.literal(", ") }
            sink.literal(name)
            sink.literal(" ")
            sink.milliseconds(value)
            sink.literal(" ms")
            shown = true
        }
        if !shown { sink.literal("none recorded") }
        sink.endFact()
        sink.beginFact("connection")
        sink.literal(newConnection.map { $0 ? "new" : "reused" } ?? "unknown")
        sink.endFact()
        sink.beginFact("body")
        if let bodyLength {
            sink.number(bodyLength)
            sink.literal(" bytes")
            // Said only when it differs from what came: a body cut short, or cut at `max_body`.
            if let contentLength, contentLength != bodyLength {
                sink.literal(" (content-length ")
                sink.number(contentLength)
                sink.literal(")")
            }
            sink.literal(", sha256 ")
            if let bodySHA256 { sink.value(bodySHA256) } else { sink.literal("unknown") }
        } else {
            sink.literal("none received")
        }
        sink.endFact()
    }

    /// `IPv4` or `IPv6`: the family of the address the hop connected to; nil when it connected
    /// nowhere. Which family an edge was reached over matters once an app's users are asked for
    /// both (`ip_version: any`).
    public var connectedFamily: StaticString? {
        guard let ip = connectedIP else { return nil }
        return ip.utf8.contains(UInt8(ascii: ":")) ? "IPv6" : "IPv4"
    }

    /// `IP:port`, `[IPv6]:port`, or the address alone when the port is unknown; nil when the
    /// hop connected nowhere.
    public var connectedAddress: String? {
        guard let ip = connectedIP else { return nil }
        let address = ip.utf8.contains(UInt8(ascii: ":")) ? "[\(ip)]" : ip
        return connectedPort.map { "\(address):\($0)" } ?? address
    }
}

// MARK: The hop as the JSON report records it

extension HopEvidence {
    /// The keys of a hop's record, in the order they are written (sorted). Writing and reading
    /// both switch over them: a key added here is a fact the compiler asks both to handle.
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        case bodyLength = "body_length"
        case bodySHA256 = "body_sha256"
        case certificate
        case connectedIP = "connected_ip"
        case connectedPort = "connected_port"
        case contentLength = "content_length"
        /// The hop's curl line, for a result that did not pass; null otherwise.
        case curl
        case hostHeader = "host_header"
        case httpVersion = "http_version"
        case method
        case newConnection = "new_connection"
        case originalURL = "original_url"
        case pinnedIP = "pinned_ip"
        case sni, status, timings
        /// The negotiated version and cipher and the chain; null on plain HTTP or without a handshake.
        case tls
        case urlSent = "url_sent"
    }

    /// Writes the hop's record: every key, absent values as null.
    @inlinable
    public func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink, of evidence: Evidence) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .bodyLength: sink.number(bodyLength)
            case .bodySHA256: sink.value(bodySHA256)
            case .certificate:
                if let certificate { sink.repeated(certificate) { $0.record(into: &$1) } } else { sink.word(nil) }
            case .connectedIP: sink.value(connectedIP)
            case .connectedPort: sink.number(connectedPort)
            case .contentLength: sink.number(contentLength)
            case .curl: sink.reproduction(of: self, in: evidence)
            case .hostHeader: sink.value(connection.hostHeader)
            case .httpVersion: sink.value(httpVersion)
            case .method: sink.value(method)
            case .newConnection: sink.flag(newConnection)
            case .originalURL: sink.value(originalURL)
            case .pinnedIP: sink.value(connection.pinnedIP)
            case .sni: sink.value(connection.sni)
            case .status: sink.number(status)
            case .timings: timings.record(into: &sink)
            case .tls:
                if let tls { sink.repeated(tls) { $0.record(into: &$1) } } else { sink.word(nil) }
            case .urlSent: sink.value(connection.urlSent)
            }
        }
    }
}

extension HopEvidence: Decodable {
    /// A hop read back from its record (`runner merge`). The record keeps the result's strategy,
    /// not the hop's: the hop comes back with `system` until the result sets it (a redirect that
    /// changed scheme comes back with the result's), and its TLS settings as the defaults (its
    /// curl line, recorded, is what a merged report shows).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordKey.self)
        self.init(
            method: "", originalURL: "", connection: HopConnection(strategy: .system, urlSent: "", hostHeader: "", sni: nil, pinnedIP: nil))
        for key in RecordKey.allCases {
            switch key {
            case .bodyLength: bodyLength = try container.decodeIfPresent(Int.self, forKey: key)
            case .bodySHA256: bodySHA256 = try container.decodeIfPresent(String.self, forKey: key)
            case .certificate:
                guard try container.contains(key) && !container.decodeNil(forKey: key) else { continue }
                certificate = try CertificateSummary.read(from: container.nestedContainer(keyedBy: CertificateSummary.RecordKey.self, forKey: key))
            case .connectedIP: connectedIP = try container.decodeIfPresent(String.self, forKey: key)
            case .connectedPort: connectedPort = try container.decodeIfPresent(Int.self, forKey: key)
            case .contentLength: contentLength = try container.decodeIfPresent(Int.self, forKey: key)
            case .curl: reproduction = try container.decodeIfPresent(String.self, forKey: key)
            case .hostHeader: connection.hostHeader = try container.decode(String.self, forKey: key)
            case .httpVersion: httpVersion = try container.decodeIfPresent(String.self, forKey: key)
            case .method: method = try container.decode(String.self, forKey: key)
            case .newConnection: newConnection = try container.decodeIfPresent(Bool.self, forKey: key)
            case .originalURL: originalURL = try container.decode(String.self, forKey: key)
            case .pinnedIP: connection.pinnedIP = try container.decodeIfPresent(String.self, forKey: key)
            case .sni: connection.sni = try container.decodeIfPresent(String.self, forKey: key)
            case .status: status = try container.decodeIfPresent(Int.self, forKey: key)
            case .timings: timings = try Timings.read(from: container.nestedContainer(keyedBy: Timings.RecordKey.self, forKey: key))
            case .tls:
                guard try container.contains(key) && !container.decodeNil(forKey: key) else { continue }
                tls = try TLSSession.read(from: container.nestedContainer(keyedBy: TLSSession.RecordKey.self, forKey: key))
            case .urlSent: connection.urlSent = try container.decode(String.self, forKey: key)
            }
        }
    }
}
