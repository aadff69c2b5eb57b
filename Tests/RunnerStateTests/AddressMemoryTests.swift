import Foundation
import RunnerResults
import Testing

@testable import RunnerState

/// The state store on real SQLite files in a temporary folder: what it remembers and for how
/// long (dates passed in), two writers at once, and the files it refuses.
@Suite("The state file", .timeLimit(.minutes(1)))
struct AddressMemoryTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static let day: Duration = .seconds(86_400)

    /// One run's answer for `host` on map `ali` of plan `p`, its writes in the file before it returns.
    static func run(
        _ memory: AddressMemory, _ addresses: [String], at date: Date, host: String = "api.example.com", client: String? = nil,
        window: Duration = day
    ) throws -> [String] {
        let retained = try memory.recording(plan: "p").answer(
            map: "ali", host: host, client: client, addresses: addresses, at: date, window: window)
        let recording = memory.flush()
        #expect(recording.isComplete, "\(recording.summary())")
        return retained.map(\.address)
    }

    @Test func anAddressNoLongerReturnedIsRetainedUntilItsWindowEnds() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        #expect(try Self.run(memory, ["192.0.2.1", "192.0.2.2"], at: Self.start) == [])
        let later = Self.start.addingTimeInterval(3600)
        // A day's window, an hour on: 192.0.2.1 is retained, the current answer is not.
        let recording = memory.recording(plan: "p")
        let retained = try recording.answer(
            map: "ali", host: "api.example.com", client: nil, addresses: ["192.0.2.2", "2001:db8::3"], at: later, window: Self.day)
        #expect(retained.map(\.address) == ["192.0.2.1"])
        #expect(retained.first?.lastReturned == Self.start && retained.first?.firstReturned == Self.start)
        #expect(retained.first?.family == 4)
        #expect(memory.flush().isComplete)
        // The next run reads it from the file as having left; past its window (an hour ago, with a
        // 30-minute window) it is gone.
        #expect(try Self.run(memory, ["192.0.2.2", "2001:db8::3"], at: later.addingTimeInterval(60)) == ["192.0.2.1"])
        #expect(try Self.run(memory, ["192.0.2.2", "2001:db8::3"], at: later.addingTimeInterval(120), window: .seconds(1800)) == [])
        // Returned again, it is current again: not retained, and no longer left.
        #expect(try Self.run(memory, ["192.0.2.1", "192.0.2.2"], at: later.addingTimeInterval(180)) == ["2001:db8::3"])
        // Per client, and the first time kept.
        _ = try Self.run(memory, ["192.0.2.9"], at: later, client: "gd-mobile")
        let rows = try memory.all()
        #expect(rows.map { "\($0.client ?? "-") \($0.address)" } == ["- 192.0.2.1", "- 192.0.2.2", "- 2001:db8::3", "gd-mobile 192.0.2.9"])
        #expect(rows[0].firstReturned == Self.start && rows[0].lastReturned == later.addingTimeInterval(180))
        #expect(rows[2].firstReturned == later && rows[2].lastReturned == later.addingTimeInterval(120))
    }

    /// The same answer again moves one time; an answer that changes twice within one run (a TTL
    /// that ran out) retains what the first one added.
    @Test func withinARunEachAnswerIsComparedWithTheOneBefore() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        let recording = memory.recording(plan: "p")
        func answer(_ addresses: [String], after seconds: TimeInterval) throws -> [String] {
            try recording.answer(
                map: "ali", host: "h", client: nil, addresses: addresses, at: Self.start.addingTimeInterval(seconds), window: Self.day
            ).map(\.address)
        }
        #expect(try answer(["192.0.2.1"], after: 0) == [])
        #expect(try answer(["192.0.2.1"], after: 10) == [])
        #expect(try answer(["192.0.2.2"], after: 20) == ["192.0.2.1"])
        #expect(try answer(["192.0.2.3"], after: 30) == ["192.0.2.2", "192.0.2.1"])
        let rows = try memory.all()
        #expect(rows.map(\.address) == ["192.0.2.1", "192.0.2.2", "192.0.2.3"])
        #expect(rows.map(\.lastReturned) == [10, 20, 30].map { Self.start.addingTimeInterval($0) })
        #expect(rows.map(\.firstReturned) == [0, 20, 30].map { Self.start.addingTimeInterval($0) })
    }

    /// Maps taking turns within one run (the recording keeps the map answered last apart from
    /// the others): each map's answers are compared with its own, a host of the same name in two
    /// maps included, and the same in the next run.
    @Test func mapsTakingTurnsInOneRunKeepTheirOwnAnswers() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        func answer(_ recording: AddressRecording, map: String, _ addresses: [String], after seconds: TimeInterval) throws -> [String] {
            try recording.answer(
                map: map, host: "h", client: nil, addresses: addresses, at: Self.start.addingTimeInterval(seconds), window: Self.day
            ).map(\.address)
        }
        let first = memory.recording(plan: "p")
        #expect(try answer(first, map: "a", ["192.0.2.1"], after: 0) == [])
        #expect(try answer(first, map: "b", ["198.51.100.1"], after: 1) == [])
        #expect(try answer(first, map: "a", ["192.0.2.2"], after: 2) == ["192.0.2.1"])
        #expect(try answer(first, map: "c", ["203.0.113.1"], after: 3) == [])
        #expect(try answer(first, map: "b", ["198.51.100.2"], after: 4) == ["198.51.100.1"])
        #expect(try answer(first, map: "a", ["192.0.2.2"], after: 5) == ["192.0.2.1"])
        #expect(memory.flush().isComplete)
        // The next run reads each map from the file.
        let second = memory.recording(plan: "p")
        #expect(try answer(second, map: "b", ["198.51.100.3"], after: 10) == ["198.51.100.2", "198.51.100.1"])
        #expect(try answer(second, map: "a", ["192.0.2.2"], after: 11) == ["192.0.2.1"])
        #expect(try answer(second, map: "c", ["203.0.113.1"], after: 12) == [])
        #expect(memory.flush().isComplete)
    }

    /// The text an answer's addresses are written as: every list, against `joined(separator:)`.
    @Test func theWrittenAddressesAreTheSortedListSpaced() {
        let lists: [[String]] = [[], ["192.0.2.1"], ["192.0.2.1", "192.0.2.2"], ["2001:db8::1", "10.0.0.1", "a"], ["", "x"],
            (1...40).map { "10.0.\($0).\($0 * 3 % 250)" }]
        for list in lists {
            #expect(AddressRecording.written(list) == list.joined(separator: " "), "\(list)")
        }
    }

    @Test func forgetDeletesEveryRecordOfTheAddressAndAReturnRecordsItAfresh() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        _ = try Self.run(memory, ["192.0.2.1"], at: Self.start, host: "h", client: "x")
        _ = try Self.run(memory, ["192.0.2.1", "192.0.2.2"], at: Self.start, host: "h")
        #expect(try memory.forget(["192.0.2.1"]) == 2)
        #expect(try memory.all().map(\.address) == ["192.0.2.2"])
        let again = Self.start.addingTimeInterval(60)
        #expect(try Self.run(memory, ["192.0.2.1"], at: again, host: "h", client: "x") == [])
        #expect(try memory.all().first { $0.address == "192.0.2.1" }?.firstReturned == again)
        // The other answer no longer holds it either: returned again, it is new there too, and
        // 192.0.2.2 stays current.
        #expect(try Self.run(memory, ["192.0.2.1", "192.0.2.2"], at: again, host: "h") == [])
        #expect(try memory.all().map { "\($0.client ?? "-") \($0.address) \($0.firstReturned == again)" }
            == ["- 192.0.2.1 true", "- 192.0.2.2 false", "x 192.0.2.1 true"])
    }

    @Test func whatWasRecordedIsInTheFileForTheNextRun() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        do {
            let memory = try AddressMemory.open(path: path)
            _ = try Self.run(memory, ["192.0.2.1"], at: Self.start)
        }
        let reopened = try AddressMemory.open(path: path)
        #expect(try reopened.all().map(\.address) == ["192.0.2.1"])
        #expect(try Self.run(reopened, ["192.0.2.2"], at: Self.start.addingTimeInterval(5)) == ["192.0.2.1"])
    }

    /// A file of schema 1 (one row per address, each with its last time) is migrated in place:
    /// the latest answer is what was returned last, and the rest have left.
    @Test func aSchemaOneFileIsMigrated() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        do {
            let connection = try SQLiteConnection(path: path, create: true, busyTimeout: .seconds(1))
            try connection.execute(AddressMemory.migrations[0] ?? "")
            try connection.execute(
                """
                INSERT INTO returned_address VALUES
                    ('p', 'ali', 'api.example.com', '', '192.0.2.1', 4, 1800000000, 1800000000),
                    ('p', 'ali', 'api.example.com', '', '192.0.2.2', 4, 1800000000, 1800003600),
                    ('p', 'ali', 'api.example.com', '', '2001:db8::3', 6, 1800003600, 1800003600);
                PRAGMA application_id = \(AddressMemory.applicationID); PRAGMA user_version = 1
                """)
        }
        let memory = try AddressMemory.open(path: path)
        let rows = try memory.all()
        #expect(rows.map { "\($0.address) \($0.lastReturned.timeIntervalSince(Self.start))" }
            == ["192.0.2.1 0.0", "192.0.2.2 3600.0", "2001:db8::3 3600.0"])
        // The same answer again: only 192.0.2.1 is retained, and nothing else leaves.
        #expect(try Self.run(memory, ["2001:db8::3", "192.0.2.2"], at: Self.start.addingTimeInterval(7200)) == ["192.0.2.1"])
        let connection = try SQLiteConnection(path: path, create: false, busyTimeout: .seconds(1))
        var version: Int64 = 0
        try connection.run("PRAGMA user_version") { if case .integer(let value) = $0.first { version = value } }
        #expect(version == AddressMemory.schemaVersion)
    }

    /// WAL and a busy timeout: two writers at once both commit every answer.
    @Test func twoWritersAtOnceBothCommit() async throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        _ = try AddressMemory.open(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let memory = try AddressMemory.open(path: path)
                    let recording = memory.recording(plan: "p\(writer)")
                    for index in 0..<200 {
                        _ = try recording.answer(
                            map: "m", host: "h\(index)", client: nil, addresses: ["192.0.2.\(index % 250)"], at: Self.start,
                            window: Self.day)
                        // Commits one at a time, as answers that come apart do.
                        if index % 10 == 0 { #expect(memory.flush().isComplete) }
                    }
                    #expect(memory.flush().isComplete)
                }
            }
            try await group.waitForAll()
        }
        #expect(try AddressMemory.open(path: path).all().count == 400)
    }

    @Test func aFileThatIsNotARunnerStateFileIsRefusedAndKept() throws {
        let folder = try Self.folder()
        let text = folder.appendingPathComponent("notes.txt").path
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: StateStoreError.self) { try AddressMemory.open(path: text) }
        do {
            _ = try AddressMemory.open(path: text)
        } catch {
            #expect(error.description.hasPrefix("state file '\(text)': not a SQLite database ("), "\(error)")
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("not a database"), "never replaced")

        // Another application's SQLite database.
        let other = folder.appendingPathComponent("other.db").path
        do {
            let connection = try SQLiteConnection(path: other, create: true, busyTimeout: .seconds(1))
            try connection.execute("CREATE TABLE notes (body TEXT)")
        }
        do {
            _ = try AddressMemory.open(path: other)
            Issue.record("another application's database was taken")
        } catch {
            #expect(error.description == "state file '\(other)': a SQLite database, but not a runner state file (application_id 0); "
                + "give --state a runner state file or a new path")
        }

        // One a newer runner wrote.
        let newer = folder.appendingPathComponent("newer.db").path
        do {
            _ = try AddressMemory.open(path: newer)
            let connection = try SQLiteConnection(path: newer, create: false, busyTimeout: .seconds(1))
            try connection.execute("PRAGMA user_version = 7")
        }
        do {
            _ = try AddressMemory.open(path: newer)
            Issue.record("a newer schema was taken")
        } catch {
            #expect(error.description == "state file '\(newer)': written by a newer runner (schema 7; this one knows up to 2)")
        }
    }

    @Test func aMissingFolderIsACleanError() {
        do {
            _ = try AddressMemory.open(path: "/nonexistent-runner-folder/state.db")
            Issue.record("opened in a missing folder")
        } catch {
            #expect(error.description.hasPrefix("state file '/nonexistent-runner-folder/state.db': cannot open it: "), "\(error)")
        }
    }
}
