import Foundation

/// One request of the capture as the drafter sees it: its entry, where it came from, its URL.
struct CapturedRequest {
    var entry: HAREntry
    /// Which capture file (index into the inputs).
    var file: Int
    var url: CapturedURL
    /// mitmproxy wrote the capture: its bodies' text may be Latin-1 for bytes (`RequestBody.latin1Bytes`).
    var fromMitmproxy: Bool

    /// The request body's bytes as the app sent them.
    var body: (bytes: Data, note: String?)? { RequestBody.bytes(of: entry.request, textDecodedAsLatin1: fromMitmproxy) }

    var response: HARResponse? { entry.response }
}

/// What becomes one scenario: a request, the redirect hops the app followed after it, and the
/// identical requests merged into it.
struct CapturedExchange {
    /// The request, then each hop of a folded redirect chain.
    var hops: [CapturedRequest]
    /// The identical requests merged into this one (their entries), in capture order.
    var repeats: [CapturedRequest] = []

    var first: CapturedRequest { hops[0] }
    var final: CapturedRequest { hops[hops.count - 1] }
}
