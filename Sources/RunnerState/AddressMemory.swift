import Foundation
import RunnerResults
import Synchronization

/// What the HTTPDNS services returned, remembered across runs (`--state FILE`) or across a
/// `serve`'s cycles (in memory), per plan, map, host and client: the latest answer with when it
/// was last given, and every address with when it was first returned and when it left the
/// answer. A map's `retain:` checks the addresses that left within their window.
///
/// One SQLite database, in WAL mode with a busy timeout, so that two runs sharing the file (a
/// cron that overlaps) both go on. A run reads each map's answers once (`recording(plan:)`) and
/// its writes are committed on a thread of their own as they come, grouped into one transaction
/// while the previous one commits: a run killed midway loses at most the answers of the last
/// few milliseconds, and one that ends waits for them (`flush()`). The file says it is a runner
/// state database (`PRAGMA application_id`) and which schema it holds (`PRAGMA user_version`): a
/// file that is not one, or is corrupt, is an error, never replaced.
public final class AddressMemory: Sendable {
    /// `RUNR`: what `PRAGMA application_id` holds in a runner state file.
    static let applicationID: Int64 = 0x5255_4E52
    /// The schema this runner writes; `migrations[n]` takes a file from schema n to n + 1.
    public static let schemaVersion: Int64 = 2
    static let migrations: [Int64: String] = [
        0: """
            CREATE TABLE returned_address (
                plan TEXT NOT NULL, map TEXT NOT NULL, host TEXT NOT NULL, client TEXT NOT NULL,
                address TEXT NOT NULL, family INTEGER NOT NULL,
                first_returned INTEGER NOT NULL, last_returned INTEGER NOT NULL,
                PRIMARY KEY (plan, map, host, client, address)
            ) WITHOUT ROWID;
            CREATE INDEX returned_address_by_address ON returned_address (address);
            """,
        // Schema 2: a run that gets the same answer again updates one row (`answer`), not one
        // per address. An address in the latest answer has no `last_returned` of its own (it is
        // the answer's `answered`); one that left has the time it left, indexed for `retain`.
        1: """
            CREATE TABLE answer (
                id INTEGER PRIMARY KEY,
                plan TEXT NOT NULL, map TEXT NOT NULL, host TEXT NOT NULL, client TEXT NOT NULL,
                addresses TEXT NOT NULL, answered INTEGER NOT NULL,
                UNIQUE (plan, map, host, client)
            );
            INSERT INTO answer (plan, map, host, client, addresses, answered)
                SELECT plan, map, host, client, group_concat(address, ' '), last_returned FROM returned_address AS r
                WHERE last_returned = (
                    SELECT max(last_returned) FROM returned_address AS l
                    WHERE l.plan = r.plan AND l.map = r.map AND l.host = r.host AND l.client = r.client)
                GROUP BY plan, map, host, client;
            DROP INDEX returned_address_by_address;
            ALTER TABLE returned_address RENAME TO returned_address_1;
            CREATE TABLE returned_address (
                plan TEXT NOT NULL, map TEXT NOT NULL, host TEXT NOT NULL, client TEXT NOT NULL,
                address TEXT NOT NULL, family INTEGER NOT NULL,
                first_returned INTEGER NOT NULL, last_returned INTEGER,
                PRIMARY KEY (plan, map, host, client, address)
            ) WITHOUT ROWID;
            INSERT INTO returned_address
                SELECT plan, map, host, client, address, family, first_returned,
                    nullif(last_returned, (
                        SELECT answered FROM answer AS a
                        WHERE a.plan = r.plan AND a.map = r.map AND a.host = r.host AND a.client = r.client))
                FROM returned_address_1 AS r;
            DROP TABLE returned_address_1;
            CREATE INDEX returned_address_by_address ON returned_address (address);
            CREATE INDEX returned_address_left ON returned_address (plan, map, last_returned) WHERE last_returned IS NOT NULL;
            """,
    ]
    /// Each connection's page cache (SQLite's default is 2 MiB).
    static let cacheKibibytes = 16_384
    /// How long a write waits for another process's transaction.
    static let busyTimeout: Duration = .seconds(10)

    /// The file's path, or `:memory:`.
    public let path: String
    /// A memory for the process's life, not a file.
    public var isInMemory: Bool { path == ":memory:" }
    private let connection: LockedConnection
    /// The answers waiting for the writer's thread, and how its last commit went.
    let pending = Mutex(PendingWrites())
    /// Commits the pending answers, one group at a time.
    let writer = DispatchQueue(label: "runner state writer")
    /// A second connection to the file for a run's reads: in WAL mode it reads what is committed
    /// while the writer's thread commits, instead of waiting for it. None in memory.
    private let reader: LockedConnection?

    private init(_ connection: SQLiteConnection, reader: SQLiteConnection?) {
        path = connection.path
        self.connection = LockedConnection(connection)
        self.reader = reader.map(LockedConnection.init)
    }

    /// Runs `body` with the connection, on whichever thread calls, one caller at a time.
    func withConnection<Value>(_ body: (SQLiteConnection) throws(StateStoreError) -> Value) throws(StateStoreError) -> Value {
        try connection.withLock(body)
    }

    /// Runs `body` with the reading connection (the one connection in memory): it sees what is
    /// committed, not what is queued.
    func withReader<Value>(_ body: (SQLiteConnection) throws(StateStoreError) -> Value) throws(StateStoreError) -> Value {
        try (reader ?? connection).withLock(body)
    }

    /// Refuses to write a file that was removed or replaced since it was opened: SQLite would go
    /// on writing the old one, which no run reads again.
    func checkStillAtPath() throws(StateStoreError) {
        guard !isInMemory else { return }
        let moved = try withConnection { (connection) throws(StateStoreError) -> Bool in try connection.hasMoved() }
        guard !moved else {
            throw StateStoreError(
                path: path, reason: "it was removed or replaced since this runner opened it (writes would go to a file no run reads)")
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT`, rolled back when it throws.
    func transaction<Value>(_ body: (SQLiteConnection) throws(StateStoreError) -> Value) throws(StateStoreError) -> Value {
        try withConnection { (connection) throws(StateStoreError) -> Value in
            try connection.run("BEGIN IMMEDIATE")
            do throws(StateStoreError) {
                let value = try body(connection)
                try connection.run("COMMIT")
                return value
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The state file at `path`, created when there is none; an existing file must be a runner
    /// state database (or empty), at this schema or an older one (then migrated).
    public static func open(path: String) throws(StateStoreError) -> AddressMemory {
        try open(path: path, busyTimeout: busyTimeout)
    }

    /// `open(path:)`, waiting `busyTimeout` for another process's lock (tests wait less).
    static func open(path: String, busyTimeout: Duration) throws(StateStoreError) -> AddressMemory {
        let exists = FileManager.default.fileExists(atPath: path)
        let connection = try SQLiteConnection(path: path, create: !exists, busyTimeout: busyTimeout)
        try prepare(connection, new: !exists)
        let reader = try SQLiteConnection(path: path, create: false, busyTimeout: busyTimeout)
        // A plan's answers at issue 34's scale (30,000) stay in each connection's page cache.
        for opened in [connection, reader] { try opened.execute("PRAGMA cache_size = -\(cacheKibibytes)") }
        return AddressMemory(connection, reader: reader)
    }

    /// The state file at `path`, only to read it (`runner state show`): it must exist, be a
    /// runner state database, and have this runner's schema (a run migrates an older one).
    public static func openToRead(path: String) throws(StateStoreError) -> AddressMemory {
        let connection = try SQLiteConnection(path: path, create: false, busyTimeout: busyTimeout, readOnly: true)
        var application: Int64 = 0
        var version: Int64 = 0
        try connection.run("PRAGMA application_id") { if case .integer(let value) = $0.first { application = value } }
        try connection.run("PRAGMA user_version") { if case .integer(let value) = $0.first { version = value } }
        guard application == applicationID else {
            throw StateStoreError(path: path, reason: "a SQLite database, but not a runner state file (application_id \(application))")
        }
        guard version == schemaVersion else {
            throw StateStoreError(
                path: path,
                reason: "schema \(version), this runner reads \(schemaVersion); a run with --state \(path) brings it to \(schemaVersion)")
        }
        return AddressMemory(connection, reader: nil)
    }

    /// A memory that lasts as long as the process (`serve` without `--state`).
    public static func inMemory() throws(StateStoreError) -> AddressMemory {
        let connection = try SQLiteConnection(path: ":memory:", create: true, busyTimeout: busyTimeout)
        try prepare(connection, new: true)
        return AddressMemory(connection, reader: nil)
    }

    /// Checks what the file is, sets WAL, and brings its schema to this runner's.
    private static func prepare(_ connection: SQLiteConnection, new: Bool) throws(StateStoreError) {
        var application: Int64 = 0
        var version: Int64 = 0
        var tables: Int64 = 0
        // The first read: a file that is not a database fails here. One statement, so one
        // snapshot: another runner creating the file at the same moment is seen before its
        // migration or after it, never between (its tables without its application_id).
        try connection.run(
            "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
                + "(SELECT count(*) FROM sqlite_master)"
        ) { columns in
            guard columns.count == 3, case .integer(let a) = columns[0], case .integer(let v) = columns[1],
                case .integer(let t) = columns[2]
            else { return }
            (application, version, tables) = (a, v, t)
        }
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
            try connection.executeWaitingForLocks("PRAGMA journal_mode = WAL", timeout: busyTimeout)
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

    /// A run's answers for `plan`: each map's remembered answers are read once, then every
    /// answer is compared, and written, against them.
    public func recording(plan: String) -> AddressRecording {
        AddressRecording(memory: self, plan: plan)
    }

    /// Everything remembered, by plan, map, host, client and address; an address in the latest
    /// answer was last returned when that answer was.
    public func all() throws(StateStoreError) -> [ReturnedAddress] {
        waitForWrites()
        var rows: [ReturnedAddress] = []
        try withConnection { (connection) throws(StateStoreError) in
            try connection.run(
                """
                SELECT r.plan, r.map, r.host, r.client, r.address, r.family, r.first_returned,
                    coalesce(r.last_returned, a.answered, r.first_returned)
                FROM returned_address AS r LEFT JOIN answer AS a
                    ON a.plan = r.plan AND a.map = r.map AND a.host = r.host AND a.client = r.client
                ORDER BY r.plan, r.map, r.host, r.client, r.address
                """
            ) { columns in
                guard columns.count == 8, case .text(let plan) = columns[0], case .text(let map) = columns[1],
                    case .text(let host) = columns[2], case .text(let client) = columns[3], case .text(let address) = columns[4],
                    case .integer(let family) = columns[5], case .integer(let first) = columns[6], case .integer(let last) = columns[7]
                else { return }
                rows.append(ReturnedAddress(
                    answer: AnswerKey(plan: plan, map: map, host: host, client: client.isEmpty ? nil : client), address: address,
                    family: Int(family), firstReturned: Date(unixSeconds: first), lastReturned: Date(unixSeconds: last)))
            }
        }
        return rows
    }

    /// Deletes every record of `addresses` (an edge retired for good); how many went. A latest
    /// answer that held one no longer does, so that a service returning it again records it afresh.
    public func forget(_ addresses: [String]) throws(StateStoreError) -> Int {
        waitForWrites()
        return try transaction { (connection) throws(StateStoreError) -> Int in
            var removed = 0
            for address in addresses {
                try connection.run(
                    """
                    UPDATE answer SET addresses = trim(replace(' ' || addresses || ' ', ' ' || ?1 || ' ', ' '))
                    WHERE (plan, map, host, client) IN (
                        SELECT plan, map, host, client FROM returned_address WHERE address = ?1 AND last_returned IS NULL)
                    """, [.text(address)])
                try connection.run("DELETE FROM returned_address WHERE address = ?", [.text(address)])
                removed += connection.changes
            }
            return removed
        }
    }
}

extension Date {
    /// A time as the state file keeps it: whole seconds since 1970.
    init(unixSeconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(unixSeconds))
    }

    var unixSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}
