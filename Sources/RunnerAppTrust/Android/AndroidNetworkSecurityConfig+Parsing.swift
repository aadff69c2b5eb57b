import Foundation

extension AndroidNetworkSecurityConfig {
    /// Reads a Network Security Config file; what Android refuses (the app does not start) is
    /// an error at the element's line and column, what it skips (unknown elements and
    /// attributes) is skipped.
    ///
    /// - Parameters:
    ///   - debuggable: whether `<debug-overrides>` is read (and validated), as in a debuggable build.
    ///   - rawDirectory: the app's `res/raw` folder; when given, each `@raw/NAME` must have a file there.
    public static func parse(
        _ data: Data, path: String, debuggable: Bool, rawDirectory: String?
    ) throws(AppTrustFileError) -> AndroidNetworkSecurityConfig {
        let source = SourceLines(data)
        let root: XMLNode
        switch XMLTreeReader.read(data, source: source) {
        case .success(let node):
            root = node
        case .failure(let failure):
            throw AppTrustFileError(
                path: path, line: failure.line, column: failure.column, message: failure.message,
                sourceLine: source.line(failure.line))
        }
        var reader = NSCReader(path: path, source: source, debuggable: debuggable, rawDirectory: rawDirectory)
        return try reader.read(root)
    }
}
