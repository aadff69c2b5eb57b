import Foundation

extension LabResolver {
    /// How a query reached the resolver: a datagram, or a length-prefixed message on a stream.
    enum Transport: Sendable {
        case udp
        case tcp
    }

    /// The messages the resolver sends back for one received message, in order: none for
    /// something that is not a query (or from the silent resolver), usually one, two for
    /// `mismatch.lab.test` over UDP.
    func replies(to message: [UInt8], over transport: Transport) -> [[UInt8]] {
        guard self != .silent, let query = try? LDNSCodec.query(from: message) else { return [] }
        let name = LabDNS.canonicalName(query.name)
        do {
            switch name {
            case "truncated.lab.test" where transport == .tcp:
                return [try LDNSCodec.wire(of: Self.reply(query, ipv4: [LabAddress.primary]), answering: query)]
            case "mismatch.lab.test":
                let right = try LDNSCodec.wire(of: Self.reply(query, ipv4: [LabAddress.primary]), answering: query)
                guard transport == .udp else { return [right] }
                var decoy = try LDNSCodec.wire(of: Self.reply(query, ipv4: [Self.mismatchDecoy]), answering: query)
                // Another ID: what a spoofer who guessed wrong, or a late answer to another query, looks like.
                decoy[0] ^= 0x5A
                return [decoy, right]
            case "loop.lab.test":
                return [try Self.compressionLoop(query)]
            case _ where name.hasSuffix(Self.benchZone):
                return [try LDNSCodec.wire(of: Self.reply(query, ipv4: [LabAddress.primary]), answering: query)]
            case Self.liedAbout where self == .lying:
                return [try LDNSCodec.wire(of: Self.reply(query, ipv4: Self.lie), answering: query)]
            default:
                let (reply, _) = DoHEndpoint.reply(to: query, resolution: Self.tableResolution(of: name))
                return [try LDNSCodec.wire(of: reply, answering: query)]
            }
        } catch {
            return []
        }
    }

    /// The table's answer, as `/dns-query` gives it (HTTP-level faults are no names here), and the
    /// names only the resolvers know (`LabDNS.resolverOnlyRecords`).
    private static func tableResolution(of name: String) -> HTTPDNSResolution {
        if let record = LabDNS.records[name] ?? LabDNS.resolverOnlyRecords[name] { return .records(record) }
        return LabDNS.faults[name] == nil ? .noSuchName : .empty
    }

    /// A reply with `ipv4` for an A question (none for any other).
    private static func reply(_ query: DNSQuery, ipv4: [String]) -> DNSReply {
        guard query.type == DNSQuery.typeA else { return DNSReply() }
        return DNSReply(answers: ipv4.map { DNSReply.Record(owner: query.name, ttl: ttl, data: .a($0)) })
    }

    /// A reply whose answer's owner name points at itself. ldns writes the owner as a pointer to
    /// the question's name; redirecting that pointer to its own offset makes the loop a reader
    /// must refuse (the only bytes the lab changes by hand, and only to break them).
    private static func compressionLoop(_ query: DNSQuery) throws(DNSWireError) -> [UInt8] {
        var wire = try LDNSCodec.wire(
            of: DNSReply(answers: [DNSReply.Record(owner: query.name, ttl: ttl, data: .a(LabAddress.primary))]),
            answering: query)
        // Header (12), the question's name up to its root label, then type and class (4).
        guard let root = wire[12...].firstIndex(of: 0) else { throw DNSWireError("no question name") }
        let owner = root + 1 + 4
        guard owner + 1 < wire.count, wire[owner] & 0xC0 == 0xC0, owner < 0x3FFF else {
            throw DNSWireError("the answer's owner is not a compression pointer")
        }
        wire[owner] = 0xC0 | UInt8(owner >> 8)
        wire[owner + 1] = UInt8(owner & 0xFF)
        return wire
    }
}
