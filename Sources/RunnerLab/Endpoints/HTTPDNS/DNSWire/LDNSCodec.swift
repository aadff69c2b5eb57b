internal import CLDNS
import Foundation

/// The lab's one door to ldns: DNS queries read from wire format and replies written to it, as
/// Swift values (`DNSQuery`, `DNSReply`) and a Swift error; no C type leaves this file.
enum LDNSCodec {
    /// The UDP payload size the reply's OPT record offers when the query had one (the DNS flag
    /// day 2020 value; over HTTP it only tells the client that the lab speaks EDNS).
    static let ednsPayloadSize: UInt16 = 1232

    /// The query `wire` holds: a well-formed message with QR clear, opcode QUERY and one question.
    static func query(from wire: [UInt8]) throws(DNSWireError) -> DNSQuery {
        let packet = try parse(wire)
        defer { ldns_pkt_free(packet) }
        guard !ldns_pkt_qr(packet) else { throw DNSWireError("QR is set: a response, not a query") }
        let opcode = ldns_pkt_get_opcode(packet)
        guard opcode == LDNS_PACKET_QUERY else {
            throw DNSWireError("opcode \(opcode.rawValue), not QUERY (0)")
        }
        let question = try onlyQuestion(of: packet)
        return DNSQuery(
            id: ldns_pkt_id(packet), name: try text(of: ldns_rr_owner(question)),
            type: UInt16(truncatingIfNeeded: ldns_rr_get_type(question).rawValue),
            recordClass: UInt16(truncatingIfNeeded: ldns_rr_get_class(question).rawValue),
            recursionDesired: ldns_pkt_rd(packet), usesEDNS: ldns_pkt_edns(packet),
            clientSubnet: try clientSubnet(of: packet), wire: wire)
    }

    /// The query's EDNS Client Subnet option (RFC 7871) as `ADDRESS/PREFIX`; nil without one.
    /// ldns reads the OPT record's options; the option's own data is four fields and an address.
    private static func clientSubnet(of packet: UnsafeMutablePointer<ldns_pkt>) throws(DNSWireError) -> String? {
        guard let options = ldns_pkt_edns_get_option_list(packet) else { return nil }
        for index in 0..<ldns_edns_option_list_get_count(options) {
            guard let option = ldns_edns_option_list_get_option(options, index),
                ldns_edns_get_code(option) == LDNS_EDNS_CLIENT_SUBNET
            else { continue }
            let size = ldns_edns_get_size(option)
            guard size >= 4, let data = ldns_edns_get_data(option) else {
                throw DNSWireError("an EDNS Client Subnet option of \(size) bytes, shorter than its 4-byte head")
            }
            let bytes = Array(UnsafeBufferPointer(start: data, count: size))
            let family = Int(bytes[0]) << 8 | Int(bytes[1])
            let prefix = Int(bytes[2])
            let (length, addressFamily): (Int, Int32) = switch family {
            case 1: (4, AF_INET)
            case 2: (16, AF_INET6)
            default: throw DNSWireError("an EDNS Client Subnet option of family \(family), not 1 (IPv4) or 2 (IPv6)")
            }
            // RFC 7871 §6: exactly the prefix's whole bytes of address.
            guard prefix <= length * 8, bytes.count - 4 == (prefix + 7) / 8 else {
                throw DNSWireError("an EDNS Client Subnet option with \(bytes.count - 4) address bytes for a /\(prefix)")
            }
            var address = Array(bytes[4...]) + Array(repeating: 0, count: length - (bytes.count - 4))
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(addressFamily, &address, &text, socklen_t(text.count)) != nil else {
                throw DNSWireError("an EDNS Client Subnet option whose address cannot be printed")
            }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefix)"
        }
        return nil
    }

    /// `reply` to `query` in wire format: the query's ID and question, QR and RA set, RD copied,
    /// an OPT record when the query had one.
    static func wire(of reply: DNSReply, answering query: DNSQuery) throws(DNSWireError) -> [UInt8] {
        let asked = try parse(query.wire)
        defer { ldns_pkt_free(asked) }
        guard let packet = ldns_pkt_new() else { throw DNSWireError("ldns could not make a packet") }
        defer { ldns_pkt_free(packet) }
        ldns_pkt_set_id(packet, query.id)
        ldns_pkt_set_qr(packet, true)
        ldns_pkt_set_opcode(packet, LDNS_PACKET_QUERY)
        ldns_pkt_set_rd(packet, query.recursionDesired)
        ldns_pkt_set_ra(packet, true)
        ldns_pkt_set_tc(packet, reply.truncated)
        ldns_pkt_set_rcode(packet, reply.responseCode.rawValue)
        if query.usesEDNS { ldns_pkt_set_edns_udp_size(packet, ednsPayloadSize) }

        // The question exactly as asked (case and all), not rebuilt from its text.
        guard let question = ldns_rr_clone(try onlyQuestion(of: asked)) else {
            throw DNSWireError("ldns could not copy the question")
        }
        try push(question, to: packet, section: LDNS_SECTION_QUESTION)
        for answer in reply.answers {
            try push(try record(answer), to: packet, section: LDNS_SECTION_ANSWER)
        }

        var buffer: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = ldns_pkt2wire(&buffer, packet, &size)
        guard status == LDNS_STATUS_OK, let buffer else {
            throw DNSWireError("ldns could not write the reply: \(Self.text(of: status))")
        }
        defer { free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: size))
    }

    /// The response `wire` holds, as a client reads it: QR set, one question, answers of the types
    /// the lab writes (A, AAAA, CNAME).
    static func response(from wire: [UInt8]) throws(DNSWireError) -> DNSResponse {
        let packet = try parse(wire)
        defer { ldns_pkt_free(packet) }
        guard ldns_pkt_qr(packet) else { throw DNSWireError("QR is clear: a query, not a response") }
        let question = try onlyQuestion(of: packet)
        let rcode = ldns_pkt_get_rcode(packet).rawValue
        guard let responseCode = DNSReply.ResponseCode(rawValue: UInt8(truncatingIfNeeded: rcode)) else {
            throw DNSWireError("RCODE \(rcode), not one the lab answers with")
        }
        var answers: [DNSReply.Record] = []
        if let section = ldns_pkt_answer(packet) {
            for index in 0..<ldns_rr_list_rr_count(section) {
                guard let record = ldns_rr_list_rr(section, index) else { continue }
                answers.append(try answer(record))
            }
        }
        return DNSResponse(
            id: ldns_pkt_id(packet), questionName: try text(of: ldns_rr_owner(question)),
            questionType: UInt16(truncatingIfNeeded: ldns_rr_get_type(question).rawValue),
            recursionDesired: ldns_pkt_rd(packet), recursionAvailable: ldns_pkt_ra(packet),
            usesEDNS: ldns_pkt_edns(packet),
            reply: DNSReply(responseCode: responseCode, truncated: ldns_pkt_tc(packet), answers: answers))
    }

    /// An answer record of `DNSReply`'s kinds, read back.
    private static func answer(_ record: UnsafeMutablePointer<ldns_rr>) throws(DNSWireError) -> DNSReply.Record {
        let owner = try text(of: ldns_rr_owner(record))
        let data = try text(of: ldns_rr_rdf(record, 0))
        let type = ldns_rr_get_type(record)
        let ttl = Int(ldns_rr_ttl(record))
        switch type {
        case LDNS_RR_TYPE_A: return DNSReply.Record(owner: owner, ttl: ttl, data: .a(data))
        case LDNS_RR_TYPE_AAAA: return DNSReply.Record(owner: owner, ttl: ttl, data: .aaaa(data))
        case LDNS_RR_TYPE_CNAME: return DNSReply.Record(owner: owner, ttl: ttl, data: .cname(data))
        default: throw DNSWireError("an answer of type \(type.rawValue), not A, AAAA or CNAME")
        }
    }

    /// A name or record data in presentation form.
    private static func text(of field: UnsafeMutablePointer<ldns_rdf>?) throws(DNSWireError) -> String {
        guard let field, let text = ldns_rdf2str(field) else { throw DNSWireError("a record field ldns cannot print") }
        defer { free(text) }
        return String(cString: text)
    }

    /// `wire` parsed; the caller frees it.
    private static func parse(_ wire: [UInt8]) throws(DNSWireError) -> UnsafeMutablePointer<ldns_pkt> {
        // A header is 12 bytes; ldns is not handed less (nor an empty buffer's missing address).
        guard wire.count >= 12 else { throw DNSWireError("\(wire.count) bytes, shorter than a DNS header") }
        var packet: UnsafeMutablePointer<ldns_pkt>?
        let status = wire.withUnsafeBufferPointer { bytes in
            ldns_wire2pkt(&packet, bytes.baseAddress, bytes.count)
        }
        guard status == LDNS_STATUS_OK, let packet else {
            throw DNSWireError("not a DNS message: \(Self.text(of: status))")
        }
        return packet
    }

    /// The one question of `packet` (still owned by it).
    private static func onlyQuestion(of packet: UnsafeMutablePointer<ldns_pkt>) throws(DNSWireError)
        -> UnsafeMutablePointer<ldns_rr>
    {
        let count = ldns_pkt_qdcount(packet)
        guard count == 1, let questions = ldns_pkt_question(packet), ldns_rr_list_rr_count(questions) == 1,
            let question = ldns_rr_list_rr(questions, 0)
        else { throw DNSWireError("\(count) questions, not one") }
        return question
    }

    /// Hands `record` to `packet`, which frees it from then on; frees it here when that fails.
    private static func push(
        _ record: UnsafeMutablePointer<ldns_rr>, to packet: UnsafeMutablePointer<ldns_pkt>, section: ldns_pkt_section
    ) throws(DNSWireError) {
        guard ldns_pkt_push_rr(packet, section, record) else {
            ldns_rr_free(record)
            throw DNSWireError("ldns could not add a record to the reply")
        }
    }

    /// `answer` as an ldns record, which the caller owns.
    private static func record(_ answer: DNSReply.Record) throws(DNSWireError) -> UnsafeMutablePointer<ldns_rr> {
        guard let record = ldns_rr_new() else { throw DNSWireError("ldns could not make a record") }
        // From here the record owns its owner name and data: freeing it frees them.
        guard let owner = ldns_dname_new_frm_str(answer.owner) else {
            ldns_rr_free(record)
            throw DNSWireError("\"\(answer.owner)\" is not a domain name")
        }
        ldns_rr_set_owner(record, owner)
        ldns_rr_set_class(record, LDNS_RR_CLASS_IN)
        ldns_rr_set_ttl(record, UInt32(clamping: answer.ttl))
        let (type, dataType, text) =
            switch answer.data {
            case .a(let address): (LDNS_RR_TYPE_A, LDNS_RDF_TYPE_A, address)
            case .aaaa(let address): (LDNS_RR_TYPE_AAAA, LDNS_RDF_TYPE_AAAA, address)
            case .cname(let target): (LDNS_RR_TYPE_CNAME, LDNS_RDF_TYPE_DNAME, target)
            }
        ldns_rr_set_type(record, type)
        guard let data = ldns_rdf_new_frm_str(dataType, text) else {
            ldns_rr_free(record)
            throw DNSWireError("\"\(text)\" is not the data of a \(answer.data) record")
        }
        guard ldns_rr_push_rdf(record, data) else {
            ldns_rdf_deep_free(data)
            ldns_rr_free(record)
            throw DNSWireError("ldns could not add data to a record")
        }
        return record
    }

    private static func text(of status: ldns_status) -> String {
        guard let text = ldns_get_errorstr_by_id(status) else { return "ldns status \(status.rawValue)" }
        return String(cString: text)
    }
}
