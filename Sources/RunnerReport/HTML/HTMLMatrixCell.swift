import RunnerResults

/// What the strategy × IP matrix needs of one result: kept in the HTML report's spool as the
/// result finishes (a few dozen bytes), read back a scenario at a time to lay out its matrix.
/// The names are stored as they are shown: redacted, controls made visible (not yet escaped),
/// so no secret reaches the spool file.
struct HTMLMatrixCell: Equatable {
    var status: HTMLStatus
    var flaky: Bool
    var scenario: String
    var strategy: String
    /// Nil when nothing was pinned (the `system` strategy, a host that did not resolve).
    var ip: String?
    /// Where the result sits (set when read back: the spool keeps it beside the record).
    var position: ResultPosition
    /// The populations whose answer held the IP (`gd-mobile (isp=china-mobile)`), for the
    /// clients × addresses matrix; empty on a map asked as this machine.
    var clients: [String] = []
    /// Who picks the IP (`sdk:`), as the clients matrix names them (`clients`' form, `this
    /// machine`), and why; empty when no population's SDK hands it out, or the map names none.
    var picks: [Pick] = []

    /// A population whose HTTPDNS SDK hands the IP to its apps, and why.
    struct Pick: Equatable {
        var client: String
        var reason: String
    }

    init(_ result: borrowing ScenarioResult, at position: ResultPosition, redactor: Redactor) {
        status = HTMLStatus(result.outcome)
        flaky = result.isFlaky
        scenario = PlainText.singleLine(redactor.redact(result.scenario))
        strategy = PlainText.singleLine(redactor.redact(result.strategy.rawValue))
        ip = result.ip.map { PlainText.singleLine(redactor.redact($0)) }
        self.position = position
        clients = result.evidence.clients.map { PlainText.singleLine(redactor.redact($0.described)) }
        if let pick = result.evidence.pick {
            picks = pick.pickers.map { picker in
                let client = result.evidence.clients.first { $0.name == picker.client }?.described ?? picker.client
                return Pick(
                    client: PlainText.singleLine(redactor.redact(client)), reason: PlainText.singleLine(redactor.redact(picker.reason)))
            }
        }
    }

    init(
        status: HTMLStatus, flaky: Bool, scenario: String, strategy: String, ip: String?, position: ResultPosition,
        clients: [String] = [], picks: [Pick] = []
    ) {
        self.status = status
        self.flaky = flaky
        self.scenario = scenario
        self.strategy = strategy
        self.ip = ip
        self.position = position
        self.clients = clients
        self.picks = picks
    }

    /// The record: status, flaky, then scenario, strategy and IP, each its length (4 bytes,
    /// little-endian) and its UTF-8 (an IP of length 0xFFFFFFFF is none), then the number of
    /// clients (4 bytes) and each one the same way, then the number of picks (4 bytes) and each
    /// one's client and reason the same way.
    func encode(into bytes: inout ByteBuffer) {
        bytes.append(status.rawValue)
        bytes.append(flaky ? 1 : 0)
        Self.append(scenario, to: &bytes)
        Self.append(strategy, to: &bytes)
        if let ip { Self.append(ip, to: &bytes) } else { Self.appendLength(UInt32.max, to: &bytes) }
        Self.appendLength(UInt32(truncatingIfNeeded: clients.count), to: &bytes)
        for client in clients { Self.append(client, to: &bytes) }
        Self.appendLength(UInt32(truncatingIfNeeded: picks.count), to: &bytes)
        for pick in picks {
            Self.append(pick.client, to: &bytes)
            Self.append(pick.reason, to: &bytes)
        }
    }

    /// A record `encode` wrote, or nil when the bytes are not one (a spool read back wrong).
    init?(decoding record: UnsafeRawBufferPointer, at position: ResultPosition) {
        var reader = Reader(bytes: record)
        guard let statusByte = reader.byte(), let status = HTMLStatus(rawValue: statusByte), let flaky = reader.byte(),
            let scenario = reader.string(), let strategy = reader.string(), let ip = reader.optionalString(),
            let count = reader.length()
        else { return nil }
        var clients: [String] = []
        for _ in 0..<count {
            guard let client = reader.string() else { return nil }
            clients.append(client)
        }
        guard let pickCount = reader.length() else { return nil }
        var picks: [Pick] = []
        for _ in 0..<pickCount {
            guard let client = reader.string(), let reason = reader.string() else { return nil }
            picks.append(Pick(client: client, reason: reason))
        }
        guard reader.atEnd else { return nil }
        self.init(
            status: status, flaky: flaky != 0, scenario: scenario, strategy: strategy, ip: ip, position: position, clients: clients,
            picks: picks)
    }

    private static func append(_ text: String, to bytes: inout ByteBuffer) {
        ByteText.withUTF8(text) { utf8 in
            appendLength(UInt32(truncatingIfNeeded: min(utf8.count, Int(UInt32.max - 1))), to: &bytes)
            bytes.append(utf8)
        }
    }

    private static func appendLength(_ length: UInt32, to bytes: inout ByteBuffer) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
    }

    /// Reads a record's fields in order; nil past its end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func length() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
            offset += 4
            return value
        }

        mutating func string() -> String? {
            guard let length = length(), length != UInt32.max else { return nil }
            return text(Int(length))
        }

        /// A string, or none (`.some(nil)`); nil when the record ends early.
        mutating func optionalString() -> String?? {
            guard let length = length() else { return nil }
            guard length != UInt32.max else { return .some(nil) }
            return text(Int(length)).map { .some($0) }
        }

        private mutating func text(_ length: Int) -> String? {
            guard offset + length <= bytes.count else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }
    }
}
