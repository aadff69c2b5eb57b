import NIOCore

/// `/httpdns/json/v1/resolve?name=HOST`: an in-house JSON HTTPDNS service, the kind a plan reads
/// with `format: json` and `answer:` paths (`$.answer.v4`, `$.answer.v6`, `$.answer.ttl`).
///
/// `{"answer":{"v4":[…],"v6":[…],"ttl":T}}`, both lists always present; an unknown name is
/// `{"answer":{"v4":[],"v6":[],"ttl":60}}`. This format alone also knows
/// `LabDNS.jsonOnlyRecords`, answers a strict client must refuse (an address that is not one,
/// a negative TTL).
struct InHouseJSONEndpoint: Endpoint {
    let service: HTTPDNSService

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let host: String
        do throws(HTTPDNSBadQuery) {
            let pairs = try HTTPDNSService.pairs(request.query)
            guard let name = HTTPDNSService.parameter("name", in: pairs), !name.isEmpty else {
                throw HTTPDNSBadQuery(description: "json wants name=HOST")
            }
            host = name
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        return service.answer(
            hosts: [host], to: request, on: eventLoop, client: HTTPDNSService.client("ip", in: request.query)
        ) { resolutions in
            .json(Self.document(resolution: resolutions[0]))
        }
    }

    static func document(resolution: HTTPDNSResolution) -> JSONValue {
        let record: LabDNS.Record? = if case .records(let found) = resolution { found } else { nil }
        return .object([
            (
                "answer",
                .object([
                    ("v4", .array((record?.ipv4 ?? []).map(JSONValue.string))),
                    ("v6", .array((record?.ipv6 ?? []).map(JSONValue.string))),
                    ("ttl", .int(record?.ttl ?? LabDNS.noAnswerTTL)),
                ])
            )
        ])
    }
}
