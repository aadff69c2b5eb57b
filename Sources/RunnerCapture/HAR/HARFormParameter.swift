/// One field of a form or multipart body, as `postData.params` lists it.
public struct HARFormParameter: Sendable, Equatable {
    public var name: String
    public var value: String?
    /// Set for a file part of a multipart body.
    public var fileName: String?
    public var contentType: String?

    public init(name: String, value: String? = nil, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
    }
}
