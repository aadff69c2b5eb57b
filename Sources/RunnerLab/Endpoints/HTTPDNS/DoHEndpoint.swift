import NIOCore
import NIOHTTP1

/// `/dns-query`: RFC 8484 DNS over HTTPS, wire format. GET `?dns=` (the query, unpadded
/// base64url) or POST with `Content-Type: application/dns-message`; the reply is
/// `application/dns-message`, read and written by ldns (`LDNSCodec`).
///
/// The reply echoes the query's ID and question, sets QR and RA and copies RD. A and AAAA come
/// from the `LabDNS` table; an alias (`cname.lab.test`) answers its CNAME record and then the
/// target's own records of the type asked (`api.lab.test`'s, from the table). A query with the
/// EDNS Client Subnet option is answered as that client (`LabDNS.populations`). An unknown name is
/// NXDOMAIN, the fault `empty` NOERROR without answers, a type other than A or AAAA NOERROR
/// without answers, a class other than IN NOTIMP; the faults garbage, serverError, slow and hang
/// act at the HTTP level as in every format. `LabDNS.dohOnlyNames` answer SERVFAIL, REFUSED, TC
/// without answers, or an A record with an HTTP `Age` header. What is not a DNS query (no or
/// malformed `dns=`, a message ldns cannot read, QR set, an opcode other than QUERY, not exactly
/// one question) is a 400; POST with another content type a 415; another method a 405.
struct DoHEndpoint: Endpoint {
    static let contentType = "application/dns-message"

    let service: HTTPDNSService

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let query: DNSQuery
        do throws(DoHRefusal) {
            query = try Self.query(in: request)
        } catch {
            return eventLoop.makeSucceededFuture(error.response)
        }
        return service.answer(hosts: [query.name], to: request, on: eventLoop, client: query.clientSubnet) { resolutions in
            let (reply, age) = Self.reply(to: query, resolution: resolutions[0])
            let wire: [UInt8]
            do {
                wire = try LDNSCodec.wire(of: reply, answering: query)
            } catch {
                return .text("lab: cannot write the DNS reply: \(error)\n", status: .internalServerError)
            }
            var response = LabResponse(contentType: Self.contentType, body: ByteBuffer(bytes: wire))
            if let age { response.headers.add(name: "age", value: String(age)) }
            return response
        }
    }
}
