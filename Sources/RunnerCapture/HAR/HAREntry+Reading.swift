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
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
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
