import Foundation
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

    @Test func anAddressNoLongerReturnedIsRetainedUntilItsWindowEnds() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        try memory.record(plan: "p", map: "ali", host: "api.example.com", client: nil, addresses: ["192.0.2.1", "192.0.2.2"], at: Self.start)
        let later = Self.start.addingTimeInterval(3600)
        try memory.record(plan: "p", map: "ali", host: "api.example.com", client: nil, addresses: ["192.0.2.2", "2001:db8::3"], at: later)
        // A day's window, an hour on: 192.0.2.1 is retained, the current answer is not.
        let retained = try memory.retained(
            plan: "p", map: "ali", host: "api.example.com", client: nil, since: later.addingTimeInterval(-86_400),
            excluding: ["192.0.2.2", "2001:db8::3"])
        #expect(retained.map(\.address) == ["192.0.2.1"])
        #expect(retained.first?.lastReturned == Self.start && retained.first?.family == 4)
        // Past its window (last returned more than 30 minutes ago with a 30-minute window): gone.
        let expired = try memory.retained(
            plan: "p", map: "ali", host: "api.example.com", client: nil, since: later.addingTimeInterval(-1800), excluding: [])
        #expect(expired.map(\.address).sorted() == ["192.0.2.2", "2001:db8::3"])
        // Per client, and the first time kept.
        try memory.record(plan: "p", map: "ali", host: "api.example.com", client: "gd-mobile", addresses: ["192.0.2.9"], at: later)
        let rows = try memory.all()
        #expect(rows.map { "\($0.client ?? "-") \($0.address)" } == ["- 192.0.2.1", "- 192.0.2.2", "- 2001:db8::3", "gd-mobile 192.0.2.9"])
        #expect(rows[1].firstReturned == Self.start && rows[1].lastReturned == later)
    }

    @Test func forgetDeletesEveryRecordOfTheAddressAndAReturnRecordsItAfresh() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        try memory.record(plan: "p", map: "a", host: "h", client: "x", addresses: ["192.0.2.1"], at: Self.start)
        try memory.record(plan: "p", map: "b", host: "h", client: nil, addresses: ["192.0.2.1", "192.0.2.2"], at: Self.start)
        #expect(try memory.forget(["192.0.2.1"]) == 2)
        #expect(try memory.all().map(\.address) == ["192.0.2.2"])
        let again = Self.start.addingTimeInterval(60)
        try memory.record(plan: "p", map: "a", host: "h", client: "x", addresses: ["192.0.2.1"], at: again)
        #expect(try memory.all().first { $0.address == "192.0.2.1" }?.firstReturned == again)
    }

    @Test func whatWasRecordedIsInTheFileForTheNextRun() throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        do {
            let memory = try AddressMemory.open(path: path)
            try memory.record(plan: "p", map: "a", host: "h", client: nil, addresses: ["192.0.2.1"], at: Self.start)
        }
        let reopened = try AddressMemory.open(path: path)
        #expect(try reopened.all().map(\.address) == ["192.0.2.1"])
    }

    /// WAL and a busy timeout: two writers at once both commit every answer.
    @Test func twoWritersAtOnceBothCommit() async throws {
        let path = try Self.folder().appendingPathComponent("state.db").path
        _ = try AddressMemory.open(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let memory = try AddressMemory.open(path: path)
                    for index in 0..<200 {
                        try memory.record(
                            plan: "p\(writer)", map: "m", host: "h\(index)", client: nil, addresses: ["192.0.2.\(index % 250)"],
                            at: Self.start)
                    }
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
            #expect(error.description == "state file '\(newer)': written by a newer runner (schema 7; this one knows up to 1)")
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
