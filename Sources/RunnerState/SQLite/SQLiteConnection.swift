internal import CSQLite
import Foundation

/// The one door to SQLite: a connection owned here and closed in `deinit`, each statement
/// prepared once and kept (a run records thousands of answers with the same few), finalized
/// before the connection closes, and every failure funnelled into a `StateStoreError` that
/// names the file and says what SQLite said. No SQLite type leaves this file.
final class SQLiteConnection {
    /// A value bound to a statement's `?`, or read from a row.
    enum Value: Equatable {
        case integer(Int64)
        case text(String)
        case null
    }

    let path: String
    private let handle: OpaquePointer
    /// Prepared statements by their SQL, reset after each use.
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path` (`:memory:` for a database that lives as long as the connection), creating
    /// the file only when `create` is set. Waits up to `busyTimeout` for another writer. A file
    /// this user may not write is refused unless `readOnly` (then it is opened only to read).
    init(path: String, create: Bool, busyTimeout: Duration, readOnly: Bool = false) throws(StateStoreError) {
        self.path = path
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let opened { sqlite3_close_v2(opened) }
            throw StateStoreError(path: path, reason: "cannot open it: \(reason)")
        }
        // SQLite opens a file it may not write read-only, silently; a state file must take writes.
        if !readOnly && sqlite3_db_readonly(opened, "main") == 1 {
            sqlite3_close_v2(opened)
            throw StateStoreError(path: path, reason: "cannot be written (it, or its folder, is read-only for this user)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements, no parameters).
    func execute(_ sql: String) throws(StateStoreError) {
        try executeWaitingForLocks(sql, timeout: .zero)
    }

    /// Runs `sql` (one or more statements, no parameters), trying again while another
    /// connection holds a lock it needs, for up to `timeout` (zero: once). SQLite calls no busy
    /// handler for some locks (switching the journal to WAL while another process reads the file).
    func executeWaitingForLocks(_ sql: String, timeout: Duration) throws(StateStoreError) {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &message)
            let detail = message.map { String(cString: $0) }
            sqlite3_free(message)
            if status == SQLITE_OK { return }
            guard status & 0xFF == SQLITE_BUSY || status & 0xFF == SQLITE_LOCKED, clock.now < end else {
                throw failure(status, detail: detail)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Runs one statement with `parameters` bound in order, calling `row` for each row it
    /// returns (its columns in order).
    func run(_ sql: String, _ parameters: [Value] = [], row: ([Value]) -> Void = { _ in }) throws(StateStoreError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            let bound: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            // SQLITE_TRANSIENT: SQLite copies the text before the Swift string goes.
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .null: sqlite3_bind_null(statement, position)
            }
            guard bound == SQLITE_OK else { throw failure(bound) }
        }
        while true {
            let stepped = sqlite3_step(statement)
            if stepped == SQLITE_DONE { return }
            guard stepped == SQLITE_ROW else { throw failure(stepped) }
            var columns: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: columns.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: columns.append(.null)
                default:
                    let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    columns.append(.text(text))
                }
            }
            row(columns)
        }
    }

    /// `sql` prepared: the kept statement, or a new one kept from now on.
    private func prepared(_ sql: String) throws(StateStoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard status == SQLITE_OK, let statement = prepared else { throw failure(status) }
        statements[sql] = statement
        return statement
    }

    /// Whether the file at `path` is no longer the one this connection has open (removed,
    /// renamed or replaced): SQLite keeps writing the one it opened.
    func hasMoved() throws(StateStoreError) -> Bool {
        var moved: Int32 = 0
        let status = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        guard status == SQLITE_OK else { throw failure(status) }
        return moved != 0
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// A failure in words: SQLite's own message, and what it means for a state file.
    private func failure(_ status: Int32, detail: String? = nil) -> StateStoreError {
        let message = detail ?? String(cString: sqlite3_errmsg(handle))
        let reason: String = switch status & 0xFF {
        case SQLITE_NOTADB: "not a SQLite database (\(message)); give --state a runner state file or a new path"
        case SQLITE_CORRUPT: "the database is corrupt (\(message)); move it away and start a new one"
        case SQLITE_BUSY, SQLITE_LOCKED: "locked by another process for too long (\(message))"
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN: "cannot be written (\(message))"
        case SQLITE_FULL: "the disk is full (\(message))"
        case SQLITE_IOERR: "an I/O error (\(message))"
        default: message
        }
        return StateStoreError(path: path, reason: reason)
    }
}
