import Foundation
import RunnerVocabulary

/// A captured request's body bytes, as the app sent them, whichever way the tool recorded them.
enum RequestBody {
    /// The bytes: the recorded text, or a form rebuilt from `params` when the tool kept only
    /// those (Charles); nil when there is no body. `note` says what was rebuilt.
    static func bytes(of request: HARRequest, textDecodedAsLatin1: Bool = false) -> (bytes: Data, note: String?)? {
        guard let body = request.body else { return nil }
        if let bytes = body.bytes, !bytes.isEmpty {
            if textDecodedAsLatin1, !body.wasBase64, let original = latin1Bytes(bytes, contentType: header("content-type", in: request) ?? body.mimeType) {
                return (original, nil)
            }
            return (bytes, nil)
        }
        guard !body.params.isEmpty else { return nil }
        let contentType = (header("content-type", in: request) ?? body.mimeType ?? "").lowercased()
        if contentType.contains("multipart/form-data"), let boundary = boundary(in: header("content-type", in: request) ?? body.mimeType ?? "") {
            return (multipart(body.params, boundary: boundary), "multipart body rebuilt from the capture's params")
        }
        // Charles records a JSON body sent with a form content type as one param named by the whole JSON.
        if body.params.count == 1, (body.params[0].value ?? "").isEmpty,
            let data = body.params[0].name.data(using: .utf8), (try? JSONSerialization.jsonObject(with: data)) != nil {
            return (data, "JSON body taken from the capture's one form param")
        }
        let pairs = body.params.map { param in
            formEncoded(param.name) + "=" + formEncoded(param.value ?? "")
        }
        return (Data(pairs.joined(separator: "&").utf8), "form body rebuilt from the capture's params")
    }

    /// mitmproxy writes a body as text decoded with its content type's charset, UTF-8 for JSON,
    /// and Latin-1 otherwise (`Message._guess_encoding`): a protobuf body's bytes become the
    /// characters U+0000–U+00FF, and each character is its byte again. Nil when that guess was
    /// not Latin-1, or the text holds a character above U+00FF (it was not Latin-1 then).
    static func latin1Bytes(_ utf8: Data, contentType: String?) -> Data? {
        let type = (contentType ?? "").lowercased()
        guard !type.contains("charset="), !type.contains("json"), let text = String(data: utf8, encoding: .utf8) else { return nil }
        var bytes = Data()
        bytes.reserveCapacity(utf8.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    static func header(_ name: String, in request: HARRequest) -> String? {
        request.regularHeaders.first { $0.name.lowercased() == name }?.value
    }

    private static func formEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: .unreserved)
    }

    /// `boundary=…` of a multipart content type, quotes removed.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private static func multipart(_ params: [HARFormParameter], boundary: String) -> Data {
        var text = ""
        for param in params {
            text += "--\(boundary)\r\n"
            var disposition = "Content-Disposition: form-data; name=\"\(param.name)\""
            if let fileName = param.fileName { disposition += "; filename=\"\(fileName)\"" }
            text += disposition + "\r\n"
            if let contentType = param.contentType { text += "Content-Type: \(contentType)\r\n" }
            text += "\r\n\(param.value ?? "")\r\n"
        }
        text += "--\(boundary)--\r\n"
        return Data(text.utf8)
    }

    /// Whether the bytes are still compressed (gzip's or zlib's header): a capture that stored
    /// them decoded keeps `content-encoding`, which then must not be sent.
    static func looksCompressed(_ bytes: Data) -> Bool {
        guard bytes.count >= 2 else { return false }
        let first = bytes[bytes.startIndex], second = bytes[bytes.startIndex + 1]
        if first == 0x1F && second == 0x8B { return true }
        return first == 0x78 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }

    /// Text a plan can carry inline and a person can read: UTF-8, short, no control
    /// characters but tab, CR and LF.
    static func isInlineText(_ bytes: Data) -> Bool {
        guard bytes.count <= 2048, String(data: bytes, encoding: .utf8) != nil else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The extension a body file gets from its media type.
    static func fileExtension(mediaType: String?) -> String {
        guard let mediaType = mediaType?.lowercased() else { return "bin" }
        if mediaType.contains("json") { return "json" }
        if mediaType.contains("xml") { return "xml" }
        if mediaType.contains("protobuf") || mediaType.contains("proto") { return "pb" }
        if mediaType.hasPrefix("text/") || mediaType.contains("form") { return "txt" }
        return "bin"
    }
}
