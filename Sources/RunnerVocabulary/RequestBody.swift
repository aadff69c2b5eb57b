import Foundation

/// What a request sends as its body.
public enum RequestBody: Sendable, Equatable {
    /// Sent byte-exact from memory.
    case bytes(Data)
    /// Streamed from disk, never read whole (the plan's path, resolved against its directory).
    case file(path: String)
}
