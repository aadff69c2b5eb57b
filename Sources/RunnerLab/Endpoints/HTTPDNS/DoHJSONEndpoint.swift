import NIOCore

/// `/httpdns/doh/resolve?name=HOST[&type=A|AAAA|1|28]`: DNS-over-HTTPS JSON (application/dns-json).
///
/// `{"Status":0,"Answer":[{"name":"HOST.","type":1,"TTL":T,"data":"…"}]}`; an alias starts with its
/// CNAME record (type 5). No record of the type asked: Status 0 without Answer; unknown name: Status 3.
struct DoHJSONEndpoint: Endpoint {
    /// The DNS record types the lab answers, by number.
    enum RecordType: Int {
        case a = 1
        case aaaa = 28

        /// `A`, `AAAA` (any case) or their numbers; absent means A, as public resolvers do.
        init(parameter: String?) throws(HTTPDNSBadQuery) {
            switch parameter?.uppercased() {
            case nil, "A", "1": self = .a
            case "AAAA", "28": self = .aaaa
            case let other?: throw HTTPDNSBadQuery(description: "doh type must be A, AAAA, 1 or 28, got \"\(other)\"")
            }
        }
    }

    static let cnameType = 5
    static let contentType = "application/dns-json"

    let service: HTTPDNSService

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let host: String
        let type: RecordType
        do throws(HTTPDNSBadQuery) {
            let pairs = try HTTPDNSService.pairs(request.query)
            guard let name = HTTPDNSService.parameter("name", in: pairs), !name.isEmpty else {
                throw HTTPDNSBadQuery(description: "doh wants name=HOST")
            }
            host = name
            type = try RecordType(parameter: HTTPDNSService.parameter("type", in: pairs))
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        return service.answer(
            hosts: [host], to: request, on: eventLoop, client: HTTPDNSService.client("edns_client_subnet", in: request.query)
        ) { resolutions in
            var response = LabResponse.json(Self.document(host: host, resolution: resolutions[0], type: type))
            response.headers.replaceOrAdd(name: "content-type", value: Self.contentType)
            return response
        }
    }

    static func document(host: String, resolution: HTTPDNSResolution, type: RecordType) -> JSONValue {
        switch resolution {
        case .noSuchName:
            return .object([("Status", .int(3))])
        case .empty:
            return .object([("Status", .int(0))])
        case .records(let record):
            var owner = LabDNS.canonicalName(host) + "."
            var answers: [JSONValue] = []
            if let alias = record.canonicalName {
                let target = LabDNS.canonicalName(alias) + "."
                answers.append(Self.record(name: owner, type: Self.cnameType, ttl: record.ttl, data: target))
                owner = target
            }
            for address in type == .a ? record.ipv4 : record.ipv6 {
                answers.append(Self.record(name: owner, type: type.rawValue, ttl: record.ttl, data: address))
            }
            guard !answers.isEmpty else { return .object([("Status", .int(0))]) }
            return .object([("Status", .int(0)), ("Answer", .array(answers))])
        }
    }

    private static func record(name: String, type: Int, ttl: Int, data: String) -> JSONValue {
        .object([("name", .string(name)), ("type", .int(type)), ("TTL", .int(ttl)), ("data", .string(data))])
    }
}
