import Foundation

/// A report given to `runner merge`: where it came from (for messages) and its bytes.
public struct ReportInput: Sendable {
    public var path: String
    public var bytes: Data

    public init(path: String, bytes: Data) {
        self.path = path
        self.bytes = bytes
    }
}
