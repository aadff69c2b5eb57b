import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// Puts captured values where a flow step's request takes them (`${capture:NAME}`): in the URL's
/// path and query percent-encoded (a value cannot start another parameter or path segment),
/// in header values as they are (one with CR, LF or NUL fails the step), in the body as bytes.
enum CaptureInsertion {
    enum Filled {
        case request(HopRequest)
        /// A value that cannot go where it is used: the step fails with this.
        case problem(Problem)
    }

    /// The request with every use filled; a problem when a value cannot go where it is used.
    static func fill(_ request: HopRequest, uses: [CaptureUse], captures: [String: CapturedValue]) -> Filled {
        guard !uses.isEmpty else { return .request(request) }
        var filled = request
        // Later places first, so each offset still points where the plan put it (one use, the
        // usual step, has no order to make).
        for use in uses.count == 1 ? uses : uses.sorted(by: { $0.offset > $1.offset }) {
            // The plan check guarantees every used name is captured on each chain to here.
            let value = captures[use.name]?.text ?? ""
            switch use.field {
            case .pathAndQuery:
                let encoded = PercentEncoding.encode(value, keeping: .unreserved)
                let path = insert(encoded, into: filled.url.pathAndQuery, at: use.offset)
                filled.url = PlanURL(
                    scheme: filled.url.scheme, host: filled.url.host, explicitPort: filled.url.explicitPort, pathAndQuery: path)
            case .header(let name):
                guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                    return .problem(Problem(
                        subject: "${capture:\(use.name)}", expected: "a value without CR, LF or NUL for header \(name)",
                        actual: "a value with a line break or NUL"))
                }
                guard let index = filled.headers.firstIndex(where: { HeaderName.equal($0.name, name) }) else { continue }
                filled.headers[index].value = insert(value, into: filled.headers[index].value, at: use.offset)
            case .body:
                guard case .bytes(var data) = filled.body else { continue }
                data.insert(contentsOf: Data(value.utf8), at: data.startIndex + min(use.offset, data.count))
                filled.body = .bytes(data)
            }
        }
        return .request(filled)
    }

    /// `value` put into `text` after its first `offset` UTF-8 bytes, written once into the new
    /// string (invalid UTF-8 repaired, as decoding would).
    private static func insert(_ value: String, into text: String, at offset: Int) -> String {
        var text = text, value = value
        return text.withUTF8 { textBytes in
            value.withUTF8 { valueBytes in
                let place = min(offset, textBytes.count)
                return String(unsafeUninitializedCapacity: textBytes.count + valueBytes.count) { buffer in
                    var written = UnsafeMutableBufferPointer(rebasing: buffer[..<place])
                        .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: textBytes[..<place]))
                    written += UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: valueBytes)
                    written += UnsafeMutableBufferPointer(rebasing: buffer[written...])
                        .initialize(fromContentsOf: UnsafeBufferPointer(rebasing: textBytes[place...]))
                    return written
                }
            }
        }
    }
}
