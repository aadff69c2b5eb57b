/// What the lab's RFC 8484 endpoint answers a query with, for `LDNSCodec` to write: the header's
/// RCODE and TC and the answer section (the question is the query's, copied).
struct DNSReply: Sendable, Equatable {
    /// The RCODEs the lab answers with (RFC 1035 §4.1.1).
    enum ResponseCode: UInt8, Sendable {
        case noError = 0
        case serverFailure = 2
        case nameError = 3
        case notImplemented = 4
        case refused = 5
    }

    /// One answer record.
    struct Record: Sendable, Equatable {
        enum Data: Sendable, Equatable {
            case a(String)
            case aaaa(String)
            /// The alias target, an absolute name (`api.lab.test.`).
            case cname(String)
        }

        /// Presentation form, absolute (`api.lab.test.`).
        let owner: String
        let ttl: Int
        let data: Data
    }

    var responseCode: ResponseCode = .noError
    var truncated = false
    var answers: [Record] = []
}
