/// A DNS response as a client reads it (through `LDNSCodec`): what the lab's tests check its
/// RFC 8484 replies with.
struct DNSResponse: Sendable, Equatable {
    let id: UInt16
    /// The question's name in presentation form, as `DNSQuery.name`.
    let questionName: String
    let questionType: UInt16
    let recursionDesired: Bool
    let recursionAvailable: Bool
    /// The response carries an OPT record.
    let usesEDNS: Bool
    /// RCODE, TC and the answer section.
    let reply: DNSReply
}
