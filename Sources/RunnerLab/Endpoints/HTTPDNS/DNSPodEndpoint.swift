import NIOCore

/// `/httpdns/dnspod/d?dn=HOST[,HOST…][&ttl=1][&type=aaaa|addrs][&clientip=1][&alg=des|aes&id=ID]`:
/// DNSPod / Tencent D+ text, plain or encrypted (the enterprise interface).
///
/// One name: `ip;ip` (`,ttl` with `ttl=1`). `type=aaaa` answers the IPv6 list; `type=addrs`
/// both, as `v4s,ttl-v6s,ttl` with `0` for an empty side. `clientip=1` appends `|` and the
/// requester's address, once, after the last line. Several names: one line `host.:ANSWER` each.
///
/// No record, in the vendor's forms (all 200): an empty body for one name; `0-0` with
/// `type=addrs`; `host.:0` as a batch line; `host|clientip` for one name with `clientip=1` (the
/// lab's choice of when: the vendor's samples show the form, not the query that gets it); and the
/// whole body `0` for `LabDNS.VendorSample.dnspodZero`'s name.
///
/// With `alg=des` or `alg=aes`, `dn` (and `ip` when present) are hex ciphertexts under
/// `LabDNS.dnspodKey` (see `DNSPodCipher`); `id` is accepted whatever it is. The lab decrypts them,
/// answers the plain query as above, and sends the whole answer body encrypted the same way (hex;
/// AES with a fresh IV); an empty answer stays an empty body. A `dn` or `ip` that does not decrypt
/// under the key (the client has the wrong key) gets 200 with an empty body, which is what the
/// service does, though its documentation does not say so: the lab's choice. Such a lookup names
/// no host, so the ledger does not count it. Any other `alg` is a 400.
struct DNSPodEndpoint: Endpoint {
    enum RecordType: String {
        case a, aaaa, addrs
    }

    struct Query {
        let hosts: [String]
        let withTTL: Bool
        let type: RecordType
        let withClientIP: Bool

        init(_ pairs: [(name: String, value: String)]) throws(HTTPDNSBadQuery) {
            let names = HTTPDNSService.parameter("dn", in: pairs)?.split(separator: ",").map(String.init) ?? []
            guard !names.isEmpty else { throw HTTPDNSBadQuery(description: "dnspod wants dn=HOST[,HOST...]") }
            let typeText = HTTPDNSService.parameter("type", in: pairs)?.lowercased() ?? "a"
            guard let type = RecordType(rawValue: typeText) else {
                throw HTTPDNSBadQuery(description: "dnspod type must be a, aaaa or addrs, got \"\(typeText)\"")
            }
            hosts = names
            withTTL = HTTPDNSService.parameter("ttl", in: pairs) == "1"
            self.type = type
            withClientIP = HTTPDNSService.parameter("clientip", in: pairs) == "1"
        }
    }

    let service: HTTPDNSService

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        var pairs: [(name: String, value: String)]
        let cipher: DNSPodCipher?
        do throws(HTTPDNSBadQuery) {
            pairs = try HTTPDNSService.pairs(request.query)
            cipher = try Self.cipher(HTTPDNSService.parameter("alg", in: pairs))
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        if let cipher {
            do {
                pairs = try Self.decrypted(pairs, with: cipher)
            } catch {
                // The wrong key: the service answers nothing, and says nothing about why.
                return eventLoop.makeSucceededFuture(.text(""))
            }
        }
        let query: Query
        do {
            query = try Query(pairs)
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        let clientIP = query.withClientIP ? request.connection.remoteAddress : nil
        return service.answer(
            hosts: query.hosts, to: request, on: eventLoop, client: HTTPDNSService.parameter("ip", in: pairs)
        ) { resolutions in
            let body = Self.body(query: query, resolutions: resolutions, clientIP: clientIP)
            guard let cipher, !body.isEmpty else { return .text(body) }
            do {
                return .text(try cipher.encrypt(body))
            } catch {
                return .text("\(error)\n", status: .internalServerError)
            }
        }
    }

    static func body(query: Query, resolutions: [HTTPDNSResolution], clientIP: String?) -> String {
        let suffix = clientIP.map { "|" + $0 } ?? ""
        let answers = resolutions.map { answer($0, query: query) }
        guard query.hosts.count > 1 else {
            if let answer = answers.first.flatMap({ $0 }) { return answer + suffix }
            return noRecord(host: query.hosts.first ?? "", query: query, clientIP: clientIP)
        }
        let lines = zip(query.hosts, answers).map { host, answer in "\(LabDNS.canonicalName(host)).:\(answer ?? "0")" }
        return lines.joined(separator: "\n") + suffix
    }

    /// What one name without an address of the type asked gets, in the vendor's forms.
    private static func noRecord(host: String, query: Query, clientIP: String?) -> String {
        if LabDNS.vendorSample(host, in: .dnspod) == .dnspodZero { return "0" }
        if let clientIP { return "\(LabDNS.canonicalName(host))|\(clientIP)" }
        return query.type == .addrs ? "0-0" : ""
    }

    /// One name's answer without the client suffix; nil when it has no address of the type asked.
    private static func answer(_ resolution: HTTPDNSResolution, query: Query) -> String? {
        guard case .records(let record) = resolution else { return nil }
        func list(_ addresses: [String]) -> String? {
            guard !addresses.isEmpty else { return nil }
            return addresses.joined(separator: ";") + (query.withTTL ? ",\(record.ttl)" : "")
        }
        switch query.type {
        case .a: return list(record.ipv4)
        case .aaaa: return list(record.ipv6)
        case .addrs:
            let (v4, v6) = (list(record.ipv4), list(record.ipv6))
            if v4 == nil, v6 == nil { return nil }
            return "\(v4 ?? "0")-\(v6 ?? "0")"
        }
    }
}
