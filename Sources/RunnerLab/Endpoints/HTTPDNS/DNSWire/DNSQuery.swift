/// A DNS query as the lab's RFC 8484 endpoint read it (through `LDNSCodec`).
struct DNSQuery: Sendable, Equatable {
    /// The message ID, echoed in the reply.
    let id: UInt16
    /// The question's name in presentation form as asked, case kept and with the trailing dot
    /// (`API.lab.test.`); bytes that are not plain text appear escaped (`\032`).
    let name: String
    /// The question's type number (1 A, 28 AAAA, 5 CNAME, …).
    let type: UInt16
    /// The question's class number (1 IN).
    let recordClass: UInt16
    /// RD, copied into the reply as RFC 1035 says.
    let recursionDesired: Bool
    /// The query carried an OPT record, so the reply carries one too (RFC 6891).
    let usesEDNS: Bool
    /// The EDNS Client Subnet option (RFC 7871), `120.196.0.0/24`: the client to answer as;
    /// nil without one.
    let clientSubnet: String?
    /// The message as received, for the reply to copy its question from.
    let wire: [UInt8]

    static let typeA: UInt16 = 1
    static let typeCNAME: UInt16 = 5
    static let typeAAAA: UInt16 = 28
    static let classIN: UInt16 = 1
}
