/// The text fields of a multipart/form-data body, located so one can be replaced in place
/// (every other byte of the body stays as the app sent it).
enum MultipartParts {
    struct Part {
        var name: String
        var content: String
        /// The content with what frames it on both sides, unique in the body.
        var framed: String { before + content + after }
        var before: String
        var after: String
    }

    /// Parts with a `name` and no `filename` (files are not fields), in order.
    static func textParts(of body: String, boundary: String) -> [Part] {
        let delimiter = "--" + boundary
        var parts: [Part] = []
        for segment in body.components(separatedBy: delimiter).dropFirst() {
            guard let headerEnd = segment.range(of: "\r\n\r\n") else { continue }
            let headers = segment[..<headerEnd.lowerBound]
            guard let disposition = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                !disposition.lowercased().contains("filename="),
                let nameStart = disposition.range(of: "name=\"")
            else { continue }
            let afterName = disposition[nameStart.upperBound...]
            guard let nameEnd = afterName.firstIndex(of: "\"") else { continue }
            var content = String(segment[headerEnd.upperBound...])
            guard content.hasSuffix("\r\n") else { continue }
            content.removeLast()  // "\r\n" is one Character
            parts.append(Part(
                name: String(afterName[..<nameEnd]), content: content,
                before: String(headers) + "\r\n\r\n", after: "\r\n" + delimiter))
        }
        return parts
    }
}
