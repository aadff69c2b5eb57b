extension HARResponse {
    static func read(_ response: HARObject) throws(HARReadError) -> HARResponse {
        // A missing or `null` status is no answer, as 0 is.
        let status = try response.integer("status") ?? 0
        guard (0...999).contains(status) else { throw response.error("response.status \(status) is not an HTTP status") }
        return HARResponse(
            status: status, statusText: try response.string("statusText"),
            headers: try HARHeader.readList(response, "headers"), cookies: try HARCookie.readList(response),
            content: try response.object("content").map { (object) throws(HARReadError) in try HARBody.read(object) },
            redirectURL: try response.nonEmptyString("redirectURL"))
    }
}
