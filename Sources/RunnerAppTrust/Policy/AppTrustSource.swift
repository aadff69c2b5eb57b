/// Where a policy's rules are written: the file and the line of the matched entry
/// (`domain-config`, `base-config`, ATS exception, pinned domain, OkHttp pattern).
public struct AppTrustSource: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given to the parser; for OkHttp pins (written in the plan), the pattern.
    public var file: String
    /// 1-based; 1 in a binary plist; for OkHttp pins, the pattern's index in the list plus one.
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}
