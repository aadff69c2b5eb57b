import NIOCore
import NIOHTTP1

/// What the table says about one name, for a format to render.
enum HTTPDNSResolution: Sendable, Equatable {
    /// Addresses to answer with (the fault `slow` resolves to `LabDNS.slowAnswer`).
    case records(LabDNS.Record)
    /// A known name without addresses (the fault `empty`).
    case empty
    /// A name the lab does not know.
    case noSuchName
}

/// A lookup request the service cannot read; the endpoint answers 400 with this text.
struct HTTPDNSBadQuery: Error, CustomStringConvertible {
    let description: String
}

/// The part of every HTTPDNS endpoint that does not depend on the format: counting lookups, the
/// table, and the fault hosts, which answer the same way whatever the format.
struct HTTPDNSService: Sendable {
    let format: LabDNS.Format
    let ledger: HTTPDNSLedger

    init(_ format: LabDNS.Format, _ ledger: HTTPDNSLedger) {
        self.format = format
        self.ledger = ledger
    }

    /// How the response to a whole request goes out: a fault host replaces the format's answer.
    private enum Delivery {
        case now
        case after(TimeAmount)
        case garbage
        case serverError
        case never
    }

    /// Counts a lookup of each of `hosts`, then answers with what `render` makes of their resolutions
    /// (in the same order) — unless one of them is a fault host that replaces the answer (the first
    /// such host wins, so a batch with `hang.lab.test` in it hangs).
    ///
    /// `client`: the client the query names (an address or a CIDR), answered its population's
    /// records where it has them (`LabDNS.populations`).
    func answer(
        hosts: [String], to request: LabRequest, on eventLoop: any EventLoop, client: String? = nil,
        render: @escaping @Sendable ([HTTPDNSResolution]) -> LabResponse
    ) -> EventLoopFuture<LabResponse> {
        // Counted on arrival, so a lookup that never gets an answer still shows up.
        countLookups(hosts)
        let population = client.flatMap(LabDNS.population(of:))
        let resolutions = hosts.map { host in
            population?.records[LabDNS.canonicalName(host)].map(HTTPDNSResolution.records) ?? resolution(of: host)
        }
        switch Self.delivery(for: hosts) {
        case .now:
            return eventLoop.makeSucceededFuture(render(resolutions))
        case .after(let delay):
            return eventLoop.scheduleTask(in: delay) { render(resolutions) }.futureResult
        case .garbage:
            return eventLoop.makeSucceededFuture(
                LabResponse(contentType: "text/html; charset=utf-8", body: ByteBuffer(string: LabDNS.garbagePage)))
        case .serverError:
            return eventLoop.makeSucceededFuture(.text(LabDNS.serverErrorText, status: .internalServerError))
        case .never:
            // Ends only with the connection (client gone, or the lab stopping), and then nothing is sent;
            // a promise left pending forever would instead be reported as leaked by NIO.
            return request.connectionClosed.flatMapThrowing { throw ConnectionGone() }
        }
    }

    /// Counts lookups that are refused before resolving (an Alibaba account the service rejects).
    func countLookups(_ hosts: [String]) {
        ledger.record(format, hosts: hosts)
    }

    /// The table's answer for `host` in this format, fault hosts and the format's own names included.
    func resolution(of host: String) -> HTTPDNSResolution {
        let name = LabDNS.canonicalName(host)
        if let record = LabDNS.records[name] { return .records(record) }
        if LabDNS.resolverOnlyRecords[name] != nil { return .empty }
        if format == .json, let record = LabDNS.jsonOnlyRecords[name] { return .records(record) }
        if let sample = LabDNS.vendorSample(name, in: format) { return sample.record.map(HTTPDNSResolution.records) ?? .empty }
        switch LabDNS.faults[name] {
        case .slow?: return .records(LabDNS.slowAnswer)
        case nil: return .noSuchName
        // The other faults replace the whole answer; as a name they have nothing to offer.
        case .empty?, .garbage?, .serverError?, .hang?: return .empty
        }
    }

    private static func delivery(for hosts: [String]) -> Delivery {
        for host in hosts {
            switch LabDNS.faults[LabDNS.canonicalName(host)] {
            case .slow?: return .after(TimeAmount(LabDNS.slowDelay))
            case .garbage?: return .garbage
            case .serverError?: return .serverError
            case .hang?: return .never
            case .empty?, nil: continue
            }
        }
        return .now
    }

    /// The client a query names in its `name` parameter (an address or a CIDR), nil when it
    /// names none or cannot be read (the endpoint reports an unreadable query itself).
    static func client(_ name: String, in query: String?) -> String? {
        guard let pairs = try? pairs(query) else { return nil }
        return parameter(name, in: pairs)
    }

    /// The value of the last `name` parameter of `query`, if any.
    static func parameter(_ name: String, in pairs: [(name: String, value: String)]) -> String? {
        pairs.last(where: { $0.name == name })?.value
    }

    /// `query` as name/value pairs, or the 400 that says why it cannot be read.
    static func pairs(_ query: String?) throws(HTTPDNSBadQuery) -> [(name: String, value: String)] {
        do {
            return try QueryString.pairs(query)
        } catch {
            throw HTTPDNSBadQuery(description: "\(error)")
        }
    }

    /// The connection closed while a hanging lookup waited; there is no one left to answer.
    struct ConnectionGone: Error {}
}
