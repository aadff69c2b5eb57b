import Foundation
import NIOCore

/// `/httpdns/volcengine/resolve?domain=HOST&account_id=ID&timestamp=TS&sign=S[&type=A|AAAA][&ip=CLIENT]`:
/// Volcengine HTTPDNS's signed interface.
///
/// The signature is checked as `VolcengineSignature` says, with `LabDNS.volcengineSecret` (any
/// account). A refusal is 400 `MissingArgument` or `InvalidArgument`, or 403 `SignatureExpired`,
/// `InvalidDuration` or `InvalidSignature`, with the body `{"error":{"code":C,"message":M}}`:
/// the vendor's answer and error schemas are not public, so these shapes are the lab's own.
/// The answer is `{"data":{"ipv4":[…],"ipv6":[…],"ttl":T}}`, the shape the plan contract's
/// example maps: both lists always present, `type=A` leaves `ipv6` empty, `type=AAAA` leaves
/// `ipv4` empty, no `type` fills both. An unknown name is empty lists with TTL
/// `LabDNS.noAnswerTTL`. The lab answers one domain a query: a signed comma list is 400
/// `InvalidArgument` (the vendor's batch answer is unknown too).
struct VolcengineEndpoint: Endpoint {
    /// Which lists `type=` asks for.
    enum RecordType: String {
        case a = "A"
        case aaaa = "AAAA"
        case both = ""
    }

    let service: HTTPDNSService

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let pairs: [(name: String, value: String)]
        do {
            pairs = try HTTPDNSService.pairs(request.query)
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        let domain = HTTPDNSService.parameter("domain", in: pairs) ?? ""
        let typeText = HTTPDNSService.parameter("type", in: pairs) ?? ""
        let type = RecordType(rawValue: typeText.uppercased())
        let refusal: VolcengineSignature.Refusal? =
            if let refusal = VolcengineSignature.refusal(pairs, now: Date()) {
                refusal
            } else if type == nil {
                .init(code: "InvalidArgument", status: .badRequest, message: "type must be A or AAAA, got \"\(typeText)\"")
            } else if domain.contains(",") {
                .init(code: "InvalidArgument", status: .badRequest, message: "the lab answers one domain a query")
            } else {
                nil
            }
        if let refusal {
            // The request arrived, so it counts, even though the service refuses to resolve.
            if !domain.isEmpty { service.countLookups(domain.split(separator: ",").map(String.init)) }
            return eventLoop.makeSucceededFuture(.json(Self.error(refusal), status: refusal.status))
        }
        return service.answer(
            hosts: [domain], to: request, on: eventLoop, client: HTTPDNSService.parameter("ip", in: pairs)
        ) { resolutions in
            .json(Self.document(resolution: resolutions[0], type: type ?? .both))
        }
    }

    static func error(_ refusal: VolcengineSignature.Refusal) -> JSONValue {
        .object([("error", .object([("code", .string(refusal.code)), ("message", .string(refusal.message))]))])
    }

    static func document(resolution: HTTPDNSResolution, type: RecordType) -> JSONValue {
        let record: LabDNS.Record? = if case .records(let found) = resolution { found } else { nil }
        let ipv4 = type == .aaaa ? [] : record?.ipv4 ?? []
        let ipv6 = type == .a ? [] : record?.ipv6 ?? []
        return .object([
            (
                "data",
                .object([
                    ("ipv4", .array(ipv4.map(JSONValue.string))),
                    ("ipv6", .array(ipv6.map(JSONValue.string))),
                    ("ttl", .int(record?.ttl ?? LabDNS.noAnswerTTL)),
                ])
            )
        ])
    }
}
