import Foundation

/// What `serve` shows: the latest completed cycle's documents, replaced whole when a cycle
/// completes, read by the HTTP server's threads.
final class CycleSnapshot: @unchecked Sendable {
    /// One completed cycle's documents.
    struct Documents: Sendable {
        var metrics: [UInt8]
        var reportJSON: [UInt8]
        var junitXML: [UInt8]
    }

    private let lock = NSLock()
    private var documents: Documents?

    /// The latest cycle's documents; nil until the first has completed.
    var latest: Documents? { lock.withLock { documents } }

    func publish(_ new: Documents) {
        lock.withLock { documents = new }
    }
}
