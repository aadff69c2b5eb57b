import Foundation
import Synchronization

/// What the HTTPDNS services returned, remembered across runs (`--state FILE`) or across a
/// `serve`'s cycles (in memory): every address with when it was first and last returned, per
/// plan, map, host and client. A map's `retain:` checks the addresses still within their window
/// that the service no longer returns.
///
/// One SQLite database, in WAL mode with a busy timeout, so that two runs sharing the file (a
/// cron that overlaps) both go on; each answer is committed as it is recorded, so a run killed
/// midway loses nothing it recorded. The file says it is a runner state database
/// (`PRAGMA application_id`) and which schema it holds (`PRAGMA user_version`): a file that is
/// not one, or is corrupt, is an error, never replaced.
public final class AddressMemory: Sendable {
    /// `RUNR`: what `PRAGMA application_id` holds in a runner state file.
    static let applicationID: Int64 = 0x5255_4E52
    /// The schema this runner writes; `migrations[n]` takes a file from schema n to n + 1.
    public static let schemaVersion: Int64 = 1
    static let migrations: [Int64: String] = [
        0: """
            CREATE TABLE returned_address (
                plan TEXT NOT NULL, map TEXT NOT NULL, host TEXT NOT NULL, client TEXT NOT NULL,
                address TEXT NOT NULL, family INTEGER NOT NULL,
                first_returned INTEGER NOT NULL, last_returned INTEGER NOT NULL,
                PRIMARY KEY (plan, map, host, client, address)
            ) WITHOUT ROWID;
            CREATE INDEX returned_address_by_address ON returned_address (address);
            """
    ]
    /// How long a write waits for another process's transaction.
    static let busyTimeout: Duration = .seconds(10)

    /// The file's path, or `:memory:`.
    public let path: String
    private let connection: Mutex<SQLiteConnectionBox>

    /// The connection, sent across threads only under the mutex.
    private struct SQLiteConnectionBox: @unchecked Sendable {
        let connection: SQLiteConnection
    }

    private init(_ connection: SQLiteConnection) {
        path = connection.path
        self.connection = Mutex(SQLiteConnectionBox(connection: connection))
    }

    /// The state file at `path`, created when there is none; an existing file must be a runner
    /// state database (or empty), at this schema or an older one (then migrated).
    public static func open(path: String) throws(StateStoreError) -> AddressMemory {
        let exists = FileManager.default.fileExists(atPath: path)
        let connection = try SQLiteConnection(path: path, create: !exists, busyTimeout: busyTimeout)
        try prepare(connection, new: !exists)
        return AddressMemory(connection)
    }

    /// A memory that lasts as long as the process (`serve` without `--state`).
    public static func inMemory() throws(StateStoreError) -> AddressMemory {
        let connection = try SQLiteConnection(path: ":memory:", create: true, busyTimeout: busyTimeout)
        try prepare(connection, new: true)
        return AddressMemory(connection)
    }

    /// Checks what the file is, sets WAL, and brings its schema to this runner's.
    private static func prepare(_ connection: SQLiteConnection, new: Bool) throws(StateStoreError) {
        var application: Int64 = 0
        var version: Int64 = 0
        var tables = 0
        // The first read: a file that is not a database fails here.
        try connection.run("PRAGMA application_id") { if case .integer(let value) = $0.first { application = value } }
        try connection.run("PRAGMA user_version") { if case .integer(let value) = $0.first { version = value } }
        try connection.run("SELECT count(*) FROM sqlite_master") { if case .integer(let value) = $0.first { tables = Int(value) } }
        let empty = application == 0 && version == 0 && tables == 0
        guard empty || application == applicationID else {
            throw StateStoreError(
                path: connection.path,
                reason: "a SQLite database, but not a runner state file (application_id \(application)); "
                    + "give --state a runner state file or a new path")
        }
        guard version <= schemaVersion else {
            throw StateStoreError(
                path: connection.path,
                reason: "written by a newer runner (schema \(version); this one knows up to \(schemaVersion))")
        }
        if connection.path != ":memory:" {
            try connection.execute("PRAGMA journal_mode = WAL")
            // Durable against the process being killed; WAL commits need no fsync of the database.
            try connection.execute("PRAGMA synchronous = NORMAL")
        }
        guard version < schemaVersion else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StateStoreError) {
            // Read again under the write lock: another runner may have migrated meanwhile.
            var current: Int64 = 0
            try connection.run("PRAGMA user_version") { if case .integer(let value) = $0.first { current = value } }
            while current < schemaVersion {
                guard let migration = migrations[current] else {
                    throw StateStoreError(path: connection.path, reason: "no migration from schema \(current)")
                }
                try connection.execute(migration)
                current += 1
            }
            try connection.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(schemaVersion); COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Records that `map`'s service returned `addresses` for `host` as `client` at `date`,
    /// committed before it returns.
    public func record(
        plan: String, map: String, host: String, client: String?, addresses: [String], at date: Date
    ) throws(StateStoreError) {
        guard !addresses.isEmpty else { return }
        let now = Int64(date.timeIntervalSince1970.rounded(.down))
        try connection.withLock { (box: inout SQLiteConnectionBox) throws(StateStoreError) in
            let connection = box.connection
            try connection.run("BEGIN IMMEDIATE")
            do throws(StateStoreError) {
                for address in addresses {
                    try connection.run(
                        """
                        INSERT INTO returned_address (plan, map, host, client, address, family, first_returned, last_returned)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (plan, map, host, client, address) DO UPDATE SET last_returned = max(last_returned, excluded.last_returned)
                        """,
                        [.text(plan), .text(map), .text(host), .text(client ?? ""), .text(address),
                         .integer(address.contains(":") ? 6 : 4), .integer(now), .integer(now)])
                }
                try connection.run("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// What `map`'s service returned for `host` as `client` since `since`, oldest first by when
    /// last returned, but for `current` (the answer of now).
    public func retained(
        plan: String, map: String, host: String, client: String?, since: Date, excluding current: [String]
    ) throws(StateStoreError) -> [ReturnedAddress] {
        let cutoff = Int64(since.timeIntervalSince1970.rounded(.down))
        let excluded = Set(current)
        return try select(
            "WHERE plan = ? AND map = ? AND host = ? AND client = ? AND last_returned >= ? ORDER BY last_returned DESC, address",
            [.text(plan), .text(map), .text(host), .text(client ?? ""), .integer(cutoff)]
        ).filter { !excluded.contains($0.address) }
    }

    /// Everything remembered, by plan, map, host, client and address.
    public func all() throws(StateStoreError) -> [ReturnedAddress] {
        try select("ORDER BY plan, map, host, client, address", [])
    }

    /// Deletes every record of `addresses` (an edge retired for good); how many went.
    public func forget(_ addresses: [String]) throws(StateStoreError) -> Int {
        try connection.withLock { (box: inout SQLiteConnectionBox) throws(StateStoreError) -> Int in
            var removed = 0
            for address in addresses {
                try box.connection.run("DELETE FROM returned_address WHERE address = ?", [.text(address)])
                removed += box.connection.changes
            }
            return removed
        }
    }

    private func select(_ clause: String, _ parameters: [SQLiteConnection.Value]) throws(StateStoreError) -> [ReturnedAddress] {
        try connection.withLock { (box: inout SQLiteConnectionBox) throws(StateStoreError) -> [ReturnedAddress] in
            var rows: [ReturnedAddress] = []
            try box.connection.run(
                "SELECT plan, map, host, client, address, family, first_returned, last_returned FROM returned_address " + clause,
                parameters
            ) { columns in
                guard columns.count == 8, case .text(let plan) = columns[0], case .text(let map) = columns[1],
                    case .text(let host) = columns[2], case .text(let client) = columns[3], case .text(let address) = columns[4],
                    case .integer(let family) = columns[5], case .integer(let first) = columns[6], case .integer(let last) = columns[7]
                else { return }
                rows.append(ReturnedAddress(
                    plan: plan, map: map, host: host, client: client.isEmpty ? nil : client, address: address, family: Int(family),
                    firstReturned: Date(timeIntervalSince1970: TimeInterval(first)),
                    lastReturned: Date(timeIntervalSince1970: TimeInterval(last))))
            }
            return rows
        }
    }
}
