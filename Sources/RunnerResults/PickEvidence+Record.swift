// The JSON report's `evidence.pick` (docs/json-report.md), read back by `runner merge`;
// `evidence.picked_by` is its pickers' names, written beside it for scripts.

extension PickEvidence {
    /// The keys of a pick's record, in the order they are written (sorted).
    public enum RecordKey: String, CodingKey, CaseIterable, Sendable {
        /// The ranking connects, `[]` when ranking is off.
        case connects
        /// The populations whose answer held the address and that pick others.
        case elsewhere
        case host
        case map
        /// `{client, reason}` per population that picks the address.
        case pickers
        case sdk
    }

    /// The keys of a picker's record.
    public enum PickerKey: String, CodingKey, CaseIterable, Sendable {
        case client
        case reason
    }

    /// The keys of an `elsewhere` entry's record.
    public enum ElsewhereKey: String, CodingKey, CaseIterable, Sendable {
        case addresses
        case client
    }

    /// The keys of a ranking connect's record.
    public enum ConnectKey: String, CodingKey, CaseIterable, Sendable {
        case address
        /// The handshake's time in milliseconds, null when it failed.
        case connectMs = "connect_ms"
        /// Why it failed, null when it connected.
        case error
        case port
    }

    @inlinable
    func record<Sink: RecordSink & ~Copyable>(into sink: inout Sink) {
        sink.object(of: RecordKey.self) { key, sink in
            switch key {
            case .connects:
                sink.list(connects) { connect, sink in
                    sink.object(of: ConnectKey.self) { key, sink in
                        switch key {
                        case .address: sink.word(connect.address)
                        case .connectMs: sink.milliseconds(connect.time)
                        case .error: sink.word(connect.error)
                        case .port: sink.number(connect.port)
                        }
                    }
                }
            case .elsewhere:
                sink.list(elsewhere) { other, sink in
                    sink.object(of: ElsewhereKey.self) { key, sink in
                        switch key {
                        case .addresses: sink.words(other.addresses)
                        case .client: sink.value(other.client)
                        }
                    }
                }
            case .host: sink.value(host)
            case .map: sink.value(map)
            case .pickers:
                sink.list(pickers) { picker, sink in
                    sink.object(of: PickerKey.self) { key, sink in
                        switch key {
                        case .client: sink.value(picker.client)
                        case .reason: sink.word(picker.reason)
                        }
                    }
                }
            case .sdk: sink.word(sdk)
            }
        }
    }

    static func read(from container: KeyedDecodingContainer<RecordKey>) throws -> PickEvidence {
        var pick = PickEvidence(map: "", host: "", sdk: "", pickers: [])
        for key in RecordKey.allCases {
            switch key {
            case .connects:
                pick.connects = try container.list(key, keyedBy: ConnectKey.self) { connect in
                    var read = RankingConnect(address: "", port: 0, time: nil, error: nil)
                    for key in ConnectKey.allCases {
                        switch key {
                        case .address: read.address = try connect.decode(String.self, forKey: key)
                        case .connectMs: read.time = try connect.decodeIfPresent(Double.self, forKey: key).map { .microseconds(Int64(($0 * 1000).rounded())) }
                        case .error: read.error = try connect.decodeIfPresent(String.self, forKey: key)
                        case .port: read.port = try connect.decode(Int.self, forKey: key)
                        }
                    }
                    return read
                }
            case .elsewhere:
                pick.elsewhere = try container.list(key, keyedBy: ElsewhereKey.self) { other in
                    var read = Elsewhere(client: "", addresses: [])
                    for key in ElsewhereKey.allCases {
                        switch key {
                        case .addresses: read.addresses = try other.decode([String].self, forKey: key)
                        case .client: read.client = try other.decode(String.self, forKey: key)
                        }
                    }
                    return read
                }
            case .host: pick.host = try container.decode(String.self, forKey: key)
            case .map: pick.map = try container.decode(String.self, forKey: key)
            case .pickers:
                pick.pickers = try container.list(key, keyedBy: PickerKey.self) { picker in
                    var read = Picker(client: "", reason: "")
                    for key in PickerKey.allCases {
                        switch key {
                        case .client: read.client = try picker.decode(String.self, forKey: key)
                        case .reason: read.reason = try picker.decode(String.self, forKey: key)
                        }
                    }
                    return read
                }
            case .sdk: pick.sdk = try container.decode(String.self, forKey: key)
            }
        }
        return pick
    }
}
