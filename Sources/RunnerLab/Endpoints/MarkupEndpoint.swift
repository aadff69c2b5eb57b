import NIOCore
import NIOHTTP1

/// `/markup`: 200 with `LabMarkup.payload` as the `X-Markup` header and as an HTML body — a
/// hostile server's attempt to run script in whatever shows what it sent (the HTML report).
struct MarkupEndpoint: ImmediateEndpoint {
    func response(to request: LabRequest) -> LabResponse {
        var response = LabResponse(
            contentType: "text/html; charset=utf-8", body: ByteBuffer(string: LabMarkup.payload + "\n"))
        response.headers.add(name: LabMarkup.headerName, value: LabMarkup.payload)
        return response
    }
}
