import Foundation

/// A request's `postData` or a response's `content`: the bytes when the capture kept them.
public struct HARBody: Sendable, Equatable {
    /// The body, base64-decoded when the capture said `encoding: base64`; nil when it kept no text.
    public var bytes: Data?
    public var mimeType: String?
    /// A form's fields (`postData.params`), kept as listed; the only record of a form body
    /// when there is no text (Charles), or alongside the text (Chrome, Firefox).
    public var params: [HARFormParameter]
    /// Whether `bytes` came from base64 text.
    public var wasBase64: Bool

    public init(bytes: Data?, mimeType: String?, params: [HARFormParameter] = [], wasBase64: Bool = false) {
        self.bytes = bytes
        self.mimeType = mimeType
        self.params = params
        self.wasBase64 = wasBase64
    }
}
