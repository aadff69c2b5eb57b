extension MonitorRoutes {
    /// An answer: status line, content type, body, and `Allow` for a 405.
    struct Response: Equatable {
        var status: Int
        var reason: String
        var contentType: String
        var body: [UInt8]
        var allow: String? = nil

        /// A plain-text answer.
        static func text(_ status: Int, _ reason: String, _ text: String) -> Response {
            Response(status: status, reason: reason, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
        }
    }
}
