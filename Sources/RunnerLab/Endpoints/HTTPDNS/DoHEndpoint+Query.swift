import NIOCore
import NIOHTTP1

extension DoHEndpoint {
    /// The DNS query a request carries, as RFC 8484 sends it.
    static func query(in request: LabRequest) throws(DoHRefusal) -> DNSQuery {
        let wire: [UInt8]
        switch request.head.method {
        case .GET:
            let pairs: [(name: String, value: String)]
            do throws(HTTPDNSBadQuery) {
                pairs = try HTTPDNSService.pairs(request.query)
            } catch {
                throw DoHRefusal(status: .badRequest, reason: error.description)
            }
            guard let text = HTTPDNSService.parameter("dns", in: pairs) else {
                throw DoHRefusal(status: .badRequest, reason: "GET wants dns=QUERY (unpadded base64url)")
            }
            guard let decoded = Base64URL.decode(text) else {
                throw DoHRefusal(status: .badRequest, reason: "dns=\(text) is not unpadded base64url")
            }
            wire = decoded
        case .POST:
            let type = request.head.headers.first(name: "content-type") ?? ""
            let mediaType = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard mediaType.trimmingCharacters(in: .whitespaces).lowercased() == contentType else {
                throw DoHRefusal(
                    status: .unsupportedMediaType, reason: "POST wants Content-Type \(contentType), got \"\(type)\"")
            }
            guard !request.bodyFacts.truncated else {
                throw DoHRefusal(status: .payloadTooLarge, reason: "\(request.bodyFacts.length) bytes is no DNS message")
            }
            wire = Array(buffer: request.body)
        default:
            throw DoHRefusal(status: .methodNotAllowed, reason: "\(request.head.method) is neither GET nor POST")
        }
        do throws(DNSWireError) {
            return try LDNSCodec.query(from: wire)
        } catch {
            throw DoHRefusal(status: .badRequest, reason: "not a DNS query: \(error)")
        }
    }
}
