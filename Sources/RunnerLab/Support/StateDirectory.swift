import Foundation

/// Where the lab writes files clients need (the CA certificate), given or temporary.
struct StateDirectory: Sendable {
    let path: String
    let isTemporary: Bool

    /// Creates `requested` (and its parents) if missing; `nil` makes a fresh temporary directory.
    static func prepare(_ requested: String?) throws -> StateDirectory {
        let isTemporary = requested == nil
        let path =
            requested.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("runner-lab-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LabError.stateDirectory(path: path, reason: Self.reason(error))
        }
        return StateDirectory(path: path, isTemporary: isTemporary)
    }

    /// Writes `text` to `name` inside the directory, atomically; returns the file's path.
    func write(_ text: String, to name: String) throws -> String {
        let file = URL(fileURLWithPath: path).appendingPathComponent(name).path
        do {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw LabError.stateDirectory(path: path, reason: Self.reason(error))
        }
        return file
    }

    func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The POSIX reason ("Not a directory") when Foundation has one: its own text is often just a code.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error,
            let reason = (underlying as NSError).localizedFailureReason
        {
            return reason
        }
        return error.localizedDescription
    }
}
