import Foundation

extension HAREntry {
    static func read(_ entry: HARObject, index: Int) throws(HARReadError) -> HAREntry {
        guard let requestObject = try entry.object("request") else { throw entry.error("no request") }
        let request = try HARRequest.read(requestObject)
        let responseObject = try entry.object("response")
        let response = try responseObject.map { (object) throws(HARReadError) in try HARResponse.read(object) }
        let startedText = try entry.string("startedDateTime")
        return HAREntry(
            index: index, startedDateTimeText: startedText, startedDateTime: startedText.flatMap(parseDate),
            request: request, response: response, serverIPAddress: try serverAddress(entry),
            failure: failure(entry, response: responseObject, status: response?.status))
    }

    /// Chrome writes milliseconds, some tools none, Firefox an offset instead of `Z`.
    static func parseDate(_ text: String) -> Date? {
        guard hasDateShape(text) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// `YYYY-MM-DDTHH:MM:SS`, a fraction of 1 to 9 digits or none, then `Z`, `±HH:MM` or `±HHMM`:
    /// ICU, under ISO8601DateFormatter on Linux, divides by zero on a long fraction (found by the
    /// har fuzz target), so only this shape reaches it.
    static func hasDateShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let template = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard bytes.count >= template.count + 1, bytes.count <= 40 else { return false }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        for (byte, expected) in zip(bytes, template) {
            guard expected == UInt8(ascii: "d") ? isDigit(byte) : byte == expected else { return false }
        }
        var rest = bytes[template.count...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let digits = rest.prefix(while: isDigit)
            guard (1...9).contains(digits.count) else { return false }
            rest = rest.dropFirst(digits.count)
        }
        switch rest.first {
        case UInt8(ascii: "Z"): return rest.count == 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let offset = Array(rest.dropFirst())
            if offset.count == 5 { return isDigit(offset[0]) && isDigit(offset[1]) && offset[2] == UInt8(ascii: ":") && isDigit(offset[3]) && isDigit(offset[4]) }
            return offset.count == 4 && offset.allSatisfy(isDigit)
        default: return false
        }
    }

    /// `serverIPAddress` bare (Chrome's IPv6 brackets stripped, `""` missing), with the port from
    /// Firefox's numeric `connection` or Safari's `_serverPort`.
    private static func serverAddress(_ entry: HARObject) throws(HARReadError) -> HARServerAddress? {
        guard let written = try entry.string("serverIPAddress") else { return nil }
        // Chrome's `[2620:0:860:ed1a::1]`: the address is what is inside the brackets; a bracket
        // left open (a cut capture) is dropped too, so that no address starts with one.
        let unbracketed = written.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "[" })
        let address = String(unbracketed.prefix(while: { $0 != "]" })).trimmingCharacters(in: .whitespaces)
        guard !address.isEmpty else { return nil }
        // `connection` is a port (Firefox) or a connection id (Chrome's "12345" is an id too, but
        // Chrome writes no port at all): only a number in the port range is taken.
        let port = [portNumber(entry, "connection"), portNumber(entry, "_serverPort")].compactMap { $0 }.first
        return HARServerAddress(address: address, port: port)
    }

    private static func portNumber(_ entry: HARObject, _ key: String) -> Int? {
        // A tool's connection id of another kind is no error: the port is only looked for.
        guard let number = try? entry.integer(key), (1...65_535).contains(number) else { return nil }
        return number
    }

    private static func failure(_ entry: HARObject, response: HARObject?, status: Int?) -> HARFailure? {
        // Chrome puts `_error` in the response, other tools on the entry.
        if let recorded = errorText(entry.value("_error")) ?? response.flatMap({ errorText($0.value("_error")) }) {
            return .error(recorded)
        }
        guard let status else { return .noResponse }
        return status == 0 ? .statusZero : nil
    }

    /// A tool's `_error`: its text, or a mark that there was one when it is not text.
    private static func errorText(_ value: Any?) -> String? {
        switch value {
        case nil: nil
        case let text as String: text.isEmpty ? nil : text
        default: "an error the capture tool recorded"
        }
    }
}
