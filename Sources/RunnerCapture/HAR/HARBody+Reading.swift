import Foundation

extension HARBody {
    /// A `postData` or `content` object: `text` (base64 when `encoding` says so), `mimeType`, `params`.
    static func read(_ body: HARObject) throws(HARReadError) -> HARBody {
        let text = try body.string("text")
        let params = try body.objects("params").map { (param) throws(HARReadError) in
            guard let name = try param.string("name") else { throw param.error("\(param.place) has no name") }
            return HARFormParameter(
                name: name, value: try param.string("value"), fileName: try param.nonEmptyString("fileName"),
                contentType: try param.nonEmptyString("contentType"))
        }
        let base64: Bool
        switch try body.nonEmptyString("encoding") {
        case nil: base64 = false
        case "base64": base64 = true
        case let other?: throw body.error("\(body.place).encoding '\(other.prefix(40))' is not one a capture uses (base64)")
        }
        guard let text else { return HARBody(bytes: nil, mimeType: try body.string("mimeType"), params: params) }
        let bytes: Data
        if base64 {
            guard let decoded = decodeBase64(text) else { throw body.error("\(body.place).text is not base64") }
            bytes = decoded
        } else {
            bytes = Data(text.utf8)
        }
        return HARBody(bytes: bytes, mimeType: try body.string("mimeType"), params: params, wasBase64: base64)
    }

    /// Base64 as the tools write it: line breaks allowed, padding optional; any other character refused.
    static func decodeBase64(_ text: String) -> Data? {
        var compact = text.filter { !$0.isWhitespace }
        if compact.count % 4 != 0 { compact += String(repeating: "=", count: 4 - compact.count % 4) }
        return Data(base64Encoded: compact)
    }
}
