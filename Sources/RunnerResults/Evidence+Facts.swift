import RunnerVocabulary

extension ScenarioResult {
    /// The result's evidence, in the order every report shows it (the console and JUnit's lines,
    /// the HTML report's lists): the one place a fact of the whole result is declared for them;
    /// each hop's own facts are `HopEvidence.describe(into:)`. The insecure warning is not here:
    /// each report puts it first, above the verdict.
    @inlinable
    public func describeEvidence<Sink: EvidenceSink & ~Copyable>(into sink: inout Sink) {
        sink.fact("strategy", evidence.strategy.rawValue)
        sink.fact("ip source", evidence.ipSource)
        if !evidence.clients.isEmpty { sink.fact("clients", list: evidence.clients.map(\.described)) }
        if let retained = evidence.retained { sink.fact("retained", retained.summary) }
        if let pick = evidence.pick {
            if pick.pickers.isEmpty {
                sink.fact("picked by", pick.unpickedLine)
            } else {
                sink.fact("picked by", list: pick.pickerLines)
            }
            if !pick.connects.isEmpty { sink.fact("ranking connects", list: pick.connects.map(\.described)) }
        }
        if let grpc = evidence.grpc { sink.fact("grpc", grpc.summary) }
        for policy in evidence.appPolicies { sink.fact("app policy", policy.summary) }
        if !evidence.appWarnings.isEmpty { sink.fact("app warnings", list: evidence.appWarnings.map(\.description)) }
        if !tags.isEmpty { sink.fact("tags", list: tags) }
        for lookup in evidence.dns { sink.dnsLookup(lookup) }
        if let reason = evidence.dnsNotChecked {
            sink.beginRemark(.dnsNotChecked)
            sink.value(reason)
            sink.endRemark()
        }
        if evidence.hops.isEmpty {
            sink.beginRemark(.noRequest)
            sink.literal("no request was sent")
            sink.endRemark()
        }
        // Each hop read in place: iterating the array copied it out, a retain and a release for
        // each of its two dozen references.
        evidence.hops.withUnsafeBufferPointer { hops in
            for index in hops.indices {
                sink.beginHop(index + 1, hops[index])
                hops[index].describe(into: &sink)
                sink.endHop(hops[index], of: evidence)
            }
        }
        for capture in evidence.captured {
            sink.beginRemark(.captured)
            sink.value(capture.name)
            if let value = capture.value {
                sink.literal(" = ")
                sink.value(value)
            } else {
                sink.literal(" (secret)")
            }
            sink.endRemark()
        }
        for note in evidence.notes {
            sink.beginRemark(.note)
            sink.value(note)
            sink.endRemark()
        }
    }
}

// MARK: The evidence as the JSON report records it

extension Evidence {
    /// The keys of the evidence's record, in the order they are written (sorted). Writing and
    /// reading both switch over them: a key added here is a fact the compiler asks both to handle.
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        /// The rules each app of the scenario applied (`app:`), `[]` for none.
        case appPolicy = "app_policy"
        /// What those rules warn of, `[]` for none.
        case appWarnings = "app_warnings"
        /// What the result captured (`capture:`), `[]` for none.
        case captured
        /// The user populations whose answer held the address, `[]` for none (`clients:`).
        case clients
        /// What the scenario's resolver answered per host (`resolver:`), `[]` for none.
        case dns
        /// Why `expect.dns` was not checked, when it was not.
        case dnsNotChecked = "dns_not_checked"
        /// A gRPC call's answer (`request.grpc`), null otherwise.
        case grpc
        case hops
        case ipSource = "ip_source"
        case notes
        /// On a map with `sdk:`: who picks the address, why, and the ranking connects; null otherwise.
        case pick
        /// The names of the populations whose apps use the address (`pick`'s pickers), `[]` for
        /// none; null when the map names no SDK.
        case pickedBy = "picked_by"
        /// Why a retained address was checked (`retain:`), null for a current answer's.
        case retained
    }

    /// Writes the evidence's record. The strategy and the insecure flag are the result's own
    /// keys; the connection settings and the pin verdict are not recorded (each hop's curl line
    /// carries what the settings are for; the pins' verdict is the result's outcome).
    @inlinable
    public func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .appPolicy:
                sink.list(appPolicies) { policy, sink in policy.record(into: &sink) }
            case .appWarnings:
                sink.list(appWarnings) { warning, sink in warning.record(into: &sink) }
            case .captured:
                sink.list(captured) { capture, sink in capture.record(into: &sink) }
            case .clients:
                sink.list(clients) { client, sink in client.record(into: &sink) }
            case .dns:
                sink.list(dns) { lookup, sink in lookup.record(into: &sink) }
            case .dnsNotChecked: sink.value(dnsNotChecked)
            case .grpc:
                if let grpc { grpc.record(into: &sink) } else { sink.value(nil) }
            case .hops:
                sink.list(hops) { hop, sink in hop.record(into: &sink, of: self) }
            case .ipSource: sink.value(ipSource)
            case .notes: sink.values(notes)
            case .pick:
                if let pick { pick.record(into: &sink) } else { sink.value(nil) }
            case .pickedBy:
                if let pick { sink.values(pick.pickedBy) } else { sink.value(nil) }
            case .retained:
                if let retained { retained.record(into: &sink) } else { sink.value(nil) }
            }
        }
    }
}

extension Evidence: Decodable {
    /// The evidence read back from its record (`runner merge`); the result sets its strategy
    /// and insecure flag, which it records itself (`adopt(strategy:insecure:)`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordKey.self)
        self.init(strategy: .system, ipSource: "", insecure: false)
        for key in RecordKey.allCases {
            switch key {
            case .appPolicy:
                // Missing or null only in reports written before apps: none.
                appPolicies = try container.list(key, keyedBy: AppPolicyEvidence.RecordKey.self, AppPolicyEvidence.read)
            case .appWarnings:
                appWarnings = try container.list(key, keyedBy: AppWarning.RecordKey.self, AppWarning.read)
            case .captured:
                // Missing or null only in reports written before flows: none.
                captured = try container.list(key, keyedBy: CaptureRecord.RecordKey.self, CaptureRecord.read)
            case .clients:
                // Missing or null only in reports written before client populations: none.
                clients = try container.list(key, keyedBy: ClientIdentity.RecordKey.self, ClientIdentity.read)
            case .dns:
                // Missing or null only in reports written before resolver checks: none.
                dns = try container.list(key, keyedBy: DNSLookupEvidence.RecordKey.self, DNSLookupEvidence.read)
            case .dnsNotChecked: dnsNotChecked = try container.decodeIfPresent(String.self, forKey: key)
            case .grpc:
                // Missing or null in reports written before gRPC calls, and for a plain request.
                guard container.contains(key), try !container.decodeNil(forKey: key) else { continue }
                grpc = try GRPCAnswer.read(from: container.nestedContainer(keyedBy: GRPCAnswer.RecordKey.self, forKey: key))
            case .hops: hops = try container.decode([HopEvidence].self, forKey: key)
            case .ipSource: ipSource = try container.decode(String.self, forKey: key)
            case .notes: notes = try container.decode([String].self, forKey: key)
            case .pick:
                // Missing or null in reports written before the SDK's pick, and for a map without `sdk:`.
                guard container.contains(key), try !container.decodeNil(forKey: key) else { continue }
                pick = try PickEvidence.read(from: container.nestedContainer(keyedBy: PickEvidence.RecordKey.self, forKey: key))
            case .pickedBy:
                // The pick's pickers, read with it.
                continue
            case .retained:
                // Missing or null in reports written before retained addresses, and for a current answer's.
                guard container.contains(key), try !container.decodeNil(forKey: key) else { continue }
                retained = try RetainedEvidence.read(from: container.nestedContainer(keyedBy: RetainedEvidence.RecordKey.self, forKey: key))
            }
        }
    }

    /// Sets what the result's record keeps for its evidence: the strategy (each hop's too) and
    /// whether verification was skipped.
    public mutating func adopt(strategy: StrategyKind, insecure: Bool) {
        self.strategy = strategy
        self.insecure = insecure
        for index in hops.indices { hops[index].connection.strategy = strategy }
    }
}
