import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// `/httpdns/alibaba/{account}/d?host=HOST[&query=4|6|4,6]`: Alibaba Cloud EMAS JSON; and the
/// signed interface `/httpdns/alibaba/{account}/sign_d?host=HOST&t=EXPIRY&s=SIGNATURE`.
///
/// `{"host":H,"ips":[…],"ipsv6":[…],"ttl":T,"origin_ttl":T}`: `ips` when the query includes 4 or is
/// absent, `ipsv6` when it includes 6; no answer is empty lists with 200. The names of
/// `LabDNS.VendorSample.alibabaWithoutIPs` and `.alibabaOddUnusedFields` answer in those forms. The account
/// `LabDNS.refusedAccount` gets 403 `{"code":"InvalidAccount"}`; `LabDNS.signedOnlyAccount`
/// gets 403 `{"code":"UnsignedInterfaceDisabled"}` on `/d`. `/sign_d` checks the signature as the
/// service does: `s` = hex MD5 of `HOST-SECRET-t` (`LabDNS.alibabaSecret`), `t` the expiry in Unix
/// seconds, not past and at most 24 h ahead; else 403 `InvalidSignature`, `SignatureExpired`,
/// `InvalidDuration`, or 400 `MissingArgument`.
struct AlibabaEndpoint: Endpoint {
    let service: HTTPDNSService

    /// Answers the route parameter `{account}/d`.
    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let parts = request.routeParameter.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1] == "d" || parts[1] == "sign_d" else {
            return eventLoop.makeSucceededFuture(.text("no lab endpoint at \(request.path)\n", status: .notFound))
        }
        let host: String
        let families: (v4: Bool, v6: Bool)
        do throws(HTTPDNSBadQuery) {
            let pairs = try HTTPDNSService.pairs(request.query)
            guard let name = HTTPDNSService.parameter("host", in: pairs), !name.isEmpty else {
                throw HTTPDNSBadQuery(description: "alibaba wants host=HOST")
            }
            host = name
            families = try Self.families(HTTPDNSService.parameter("query", in: pairs))
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        let refusal: (code: String, status: HTTPResponseStatus)?
        if parts[0] == LabDNS.refusedAccount {
            refusal = ("InvalidAccount", .forbidden)
        } else if parts[1] == "sign_d" {
            refusal = Self.signatureRefusal(request.query, host: host, now: Date())
        } else if parts[0] == LabDNS.signedOnlyAccount {
            refusal = ("UnsignedInterfaceDisabled", .forbidden)
        } else {
            refusal = nil
        }
        if let refusal {
            // The request arrived, so it counts, even though the service refuses to resolve.
            service.countLookups([host])
            return eventLoop.makeSucceededFuture(
                .json(.object([("code", .string(refusal.code))]), status: refusal.status))
        }
        return service.answer(
            hosts: [host], to: request, on: eventLoop, client: HTTPDNSService.client("ip", in: request.query)
        ) { resolutions in
            .json(Self.document(host: host, resolution: resolutions[0], families: families))
        }
    }

    /// Why the service refuses a `/sign_d` query, or nil when its signature holds.
    static func signatureRefusal(_ query: String?, host: String, now: Date) -> (code: String, status: HTTPResponseStatus)? {
        guard let pairs = try? HTTPDNSService.pairs(query),
            let expiryText = HTTPDNSService.parameter("t", in: pairs),
            let signature = HTTPDNSService.parameter("s", in: pairs)
        else { return ("MissingArgument", .badRequest) }
        guard let expiry = Int(expiryText) else { return ("InvalidDuration", .forbidden) }
        let nowSeconds = Int(now.timeIntervalSince1970)
        if expiry < nowSeconds { return ("SignatureExpired", .forbidden) }
        if expiry > nowSeconds + LabDNS.alibabaMaxValidity { return ("InvalidDuration", .forbidden) }
        let digest = Insecure.MD5.hash(data: Data("\(host)-\(LabDNS.alibabaSecret)-\(expiryText)".utf8))
        let expected = digest.map { String(format: "%02x", $0) }.joined()
        return signature == expected ? nil : ("InvalidSignature", .forbidden)
    }

    /// Which lists `query=` asks for; absent means IPv4 only, as in the real service.
    static func families(_ query: String?) throws(HTTPDNSBadQuery) -> (v4: Bool, v6: Bool) {
        guard let query else { return (true, false) }
        let asked = Set(query.split(separator: ",", omittingEmptySubsequences: false))
        guard !asked.isEmpty, asked.isSubset(of: ["4", "6"]) else {
            throw HTTPDNSBadQuery(description: "alibaba query must be 4, 6 or 4,6, got \"\(query)\"")
        }
        return (asked.contains("4"), asked.contains("6"))
    }

    static func document(host: String, resolution: HTTPDNSResolution, families: (v4: Bool, v6: Bool)) -> JSONValue {
        let record: LabDNS.Record? = if case .records(let found) = resolution { found } else { nil }
        let ttl = record?.ttl ?? LabDNS.noAnswerTTL
        let sample = LabDNS.vendorSample(host, in: .alibaba)
        var members: [(String, JSONValue)] = [("host", .string(LabDNS.canonicalName(host)))]
        if sample == .alibabaWithoutIPs { return .object(members + [("ttl", .int(ttl))]) }
        if families.v4 { members.append(("ips", .array((record?.ipv4 ?? []).map(JSONValue.string)))) }
        if families.v6 { members.append(("ipsv6", .array((record?.ipv6 ?? []).map(JSONValue.string)))) }
        guard case .alibabaOddUnusedFields? = sample else {
            return .object(members + [("ttl", .int(ttl)), ("origin_ttl", .int(ttl))])
        }
        return .object(members + [
            ("ttl", .int(ttl)), ("origin_ttl", .string(String(ttl))), ("client_ip", .string("")),
            ("extra", .object([("tag", .string("lab"))])),
        ])
    }
}
