internal import CLDNS
import Foundation
import RunnerPlan

/// RFC 8484 query messages through ldns: the one file of this module that calls `CLDNS`.
/// libresolv's `res_mkquery` writes no EDNS option, and a query asked as a user population
/// carries the EDNS Client Subnet option (RFC 7871); ldns writes the OPT record and its options.
enum LDNSQuery {
    /// The UDP payload size the OPT record offers (the DNS flag day 2020 value).
    static let ednsPayloadSize: UInt16 = 1232

    /// A standard query for `name` (ID 0, RD, class IN) with, for `clientSubnet`, an OPT record
    /// holding the EDNS Client Subnet option (source prefix the subnet's, scope 0); nil when the
    /// name cannot be encoded (an empty label, a label over 63 bytes, a name over 255).
    static func message(name: String, type: DNSMessage.RecordType, clientSubnet: IPSubnet?) -> Data? {
        var packet: UnsafeMutablePointer<ldns_pkt>?
        let status = ldns_pkt_query_new_frm_str(
            &packet, name, ldns_rr_type(rawValue: UInt32(type.rawValue)), LDNS_RR_CLASS_IN, UInt16(LDNS_RD))
        guard status == LDNS_STATUS_OK, let packet else { return nil }
        defer { ldns_pkt_free(packet) }
        // RFC 8484 §4.1: ID 0, so that a cache sees one query for the same question.
        ldns_pkt_set_id(packet, 0)
        if let clientSubnet {
            let data = clientSubnetOption(clientSubnet)
            guard let options = ldns_edns_option_list_new() else { return nil }
            let option = data.withUnsafeBytes { bytes in
                ldns_edns_new_from_data(LDNS_EDNS_CLIENT_SUBNET, bytes.count, bytes.baseAddress)
            }
            // The list owns the option once pushed, and the packet the list once set.
            guard let option, ldns_edns_option_list_push(options, option) else {
                if let option { ldns_edns_deep_free(option) }
                ldns_edns_option_list_deep_free(options)
                return nil
            }
            ldns_pkt_set_edns_option_list(packet, options)
            ldns_pkt_set_edns_udp_size(packet, ednsPayloadSize)
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ldns_pkt2wire(&buffer, packet, &size) == LDNS_STATUS_OK, let buffer else { return nil }
        defer { free(buffer) }
        return Data(UnsafeBufferPointer(start: buffer, count: size))
    }

    /// The option's data (RFC 7871 §6): FAMILY (1 IPv4, 2 IPv6), SOURCE PREFIX-LENGTH, SCOPE
    /// PREFIX-LENGTH 0, then the address cut to the prefix's whole bytes (the subnet's bits past
    /// its prefix are zero already).
    static func clientSubnetOption(_ subnet: IPSubnet) -> [UInt8] {
        let family: UInt8 = subnet.network.family == .v4 ? 1 : 2
        let bytes = subnet.network.bytes.prefix((subnet.prefixLength + 7) / 8)
        return [0, family, UInt8(truncatingIfNeeded: subnet.prefixLength), 0] + bytes
    }
}
