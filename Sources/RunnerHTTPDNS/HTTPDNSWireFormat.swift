import Foundation
import RunnerPlan

/// One HTTPDNS answer format as a unit: the queries it sends for a host and how it reads each
/// reply. Pure: no I/O, no clock.
///
/// A new format is a type conforming to this in `Formats/NAME/`, a case of
/// `HTTPDNSSpec.Format` (with its plan name) and a line in `HTTPDNSSpec.Format.wire` below.
package protocol HTTPDNSWireFormat: Sendable {
    /// The queries to send for `host`, in order (two for a format that asks one family per
    /// query under `ip_version: any`); each before any `auth` signs or encrypts its URL.
    func queries(template: String, host: String, ipVersion: IPVersionPreference) throws(HTTPDNSProblem) -> [HTTPDNSQuery]

    /// What the service said to one of those queries.
    func answer(to query: HTTPDNSQuery, host: String, reply: HTTPDNSReply) throws(HTTPDNSProblem) -> HTTPDNSAnswer
}

extension HTTPDNSSpec.Format {
    /// The unit that speaks this format, asking as this machine.
    package var wire: any HTTPDNSWireFormat { wire(askingAs: nil) }

    /// The unit that speaks this format, asking as `client` where the format carries a client
    /// itself (`doh`: the EDNS Client Subnet option; `alibaba-v2`: `cip`); the others carry it
    /// in their URL (`{client}`), which the lookup fills.
    package func wire(askingAs client: ClientPopulation?) -> any HTTPDNSWireFormat {
        switch self {
        case .dnspod: DNSPodFormat()
        case .alibaba: AlibabaFormat()
        case .alibabaV2: AlibabaV2Format(clientAddress: client?.address.text)
        case .dohJSON: DoHJSONFormat()
        case .json(let mapping): JSONFormat(mapping: mapping)
        case .doh(let method): DoHFormat(method: method, clientSubnet: client?.subnet)
        }
    }
}
