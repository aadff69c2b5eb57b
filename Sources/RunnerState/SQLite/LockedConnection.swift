import Synchronization

/// A connection shared by threads (a run's and the writer's), used by one at a time.
final class LockedConnection: Sendable {
    /// The connection, sent across threads only under the mutex.
    private struct Box: @unchecked Sendable {
        let connection: SQLiteConnection
    }

    private let mutex: Mutex<Box>

    init(_ connection: SQLiteConnection) {
        mutex = Mutex(Box(connection: connection))
    }

    /// Runs `body` with the connection once no other thread has it.
    func withLock<Value>(_ body: (SQLiteConnection) throws(StateStoreError) -> Value) throws(StateStoreError) -> Value {
        try mutex.withLock { (box: inout Box) throws(StateStoreError) -> Value in try body(box.connection) }
    }
}
