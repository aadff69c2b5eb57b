import Foundation

/// A throwaway directory holding `plans/…` files for one test; removed when released.
public final class PlanWorkspace {
    public let root: String

    public init() throws {
        root = NSTemporaryDirectory() + "runner-plan-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/plans", withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The directory plans are written to.
    public var plans: String { root + "/plans" }

    /// Writes `contents` at `plans/<relative>` and returns the full path.
    @discardableResult
    public func write(_ relative: String, _ contents: String) throws -> String {
        try write(relative, bytes: Array(contents.utf8))
    }

    @discardableResult
    public func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let path = plans + "/" + relative
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }
}
