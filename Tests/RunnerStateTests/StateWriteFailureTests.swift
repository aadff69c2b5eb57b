import Foundation
import RunnerResults
import Testing

@testable import RunnerState

/// Writes the state file cannot take are never silent: each failure names the answers it left
/// out and why, the transaction that held them is rolled back whole, and the file stays one the
/// next run reads and updates. (A full disk is tested end to end on a tmpfs: RunnerCLITests'
/// StateFullDiskTests.)
@Suite("State writes that fail", .timeLimit(.minutes(1)))
struct StateWriteFailureTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func answer(_ memory: AddressMemory, host: String, _ addresses: [String], client: String? = nil) throws {
        _ = try memory.recording(plan: "p").answer(
            map: "ali", host: host, client: client, addresses: addresses, at: start, window: .seconds(86_400))
    }

    @Test func aFileRemovedUnderTheRunIsSaidWithTheAnswersItLost() throws {
        let path = try AddressMemoryTests.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        try Self.answer(memory, host: "a.example.com", ["192.0.2.1"])
        #expect(memory.flush().isComplete)
        try FileManager.default.removeItem(atPath: path)
        try Self.answer(memory, host: "b.example.com", ["192.0.2.2"], client: "gd-mobile")
        let recording = memory.flush()
        #expect(!recording.isComplete)
        #expect(recording.notRecorded == [AnswerKey(plan: "p", map: "ali", host: "b.example.com", client: "gd-mobile")])
        #expect(recording.summary() == "state file '\(path)' did not record 1 answer (ali b.example.com as gd-mobile): "
            + "it was removed or replaced since this runner opened it (writes would go to a file no run reads)")
        // Said once: the next flush has nothing more to say.
        #expect(memory.flush().isComplete)
    }

    @Test func aFileReplacedUnderTheRunIsRefusedToo() throws {
        let folder = try AddressMemoryTests.folder()
        let path = folder.appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        try Self.answer(memory, host: "a.example.com", ["192.0.2.1"])
        #expect(memory.flush().isComplete)
        // Another file moved into its place (a restore from a backup, an operator's mv).
        let other = folder.appendingPathComponent("other.db").path
        _ = try AddressMemory.open(path: other)
        #expect(rename(other, path) == 0)
        try Self.answer(memory, host: "a.example.com", ["192.0.2.3"])
        #expect(memory.flush().problems.first?.hasPrefix("it was removed or replaced") == true)
    }

    /// Another process holds the write lock past the busy timeout: the answers are not recorded,
    /// and once the lock is gone the next answers are.
    @Test func aLockNeverGrantedIsSaidAndTheNextWritesGoIn() throws {
        let path = try AddressMemoryTests.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path, busyTimeout: .milliseconds(200))
        let holder = try SQLiteConnection(path: path, create: false, busyTimeout: .seconds(1))
        try holder.execute("BEGIN IMMEDIATE")
        try Self.answer(memory, host: "a.example.com", ["192.0.2.1"])
        try Self.answer(memory, host: "b.example.com", ["192.0.2.2"])
        let failed = memory.flush()
        #expect(Set(failed.notRecorded.map(\.host)) == ["a.example.com", "b.example.com"])
        #expect(failed.problems.count == 1 && failed.problems[0].hasPrefix("locked by another process for too long ("), "\(failed.problems)")
        try holder.execute("COMMIT")
        // A new run (a new recording) compares with the file, which holds neither: both go in.
        try Self.answer(memory, host: "a.example.com", ["192.0.2.1"])
        try Self.answer(memory, host: "b.example.com", ["192.0.2.2"])
        #expect(memory.flush().isComplete)
        #expect(try memory.all().map(\.address) == ["192.0.2.1", "192.0.2.2"])
    }

    /// A group that fails midway leaves nothing of itself: the answer before it stays whole,
    /// and the file passes SQLite's own check.
    @Test func aFailedGroupIsRolledBackWholeAndTheFileStaysValid() throws {
        let path = try AddressMemoryTests.folder().appendingPathComponent("state.db").path
        let memory = try AddressMemory.open(path: path)
        try Self.answer(memory, host: "a.example.com", ["192.0.2.1", "192.0.2.2"])
        #expect(memory.flush().isComplete)
        // A trigger fails the group on its third address row, after the answer's row and two
        // address rows were written in the same transaction.
        try memory.withConnection { (connection) throws(StateStoreError) in
            try connection.execute(
                """
                CREATE TRIGGER fail_third AFTER INSERT ON returned_address WHEN NEW.address = '192.0.2.5'
                BEGIN SELECT raise(ABORT, 'injected failure'); END
                """)
        }
        try Self.answer(memory, host: "a.example.com", ["192.0.2.3", "192.0.2.4", "192.0.2.5"])
        let failed = memory.flush()
        #expect(failed.problems == ["injected failure"], "\(failed.problems)")
        let rows = try memory.all()
        #expect(rows.map(\.address) == ["192.0.2.1", "192.0.2.2"], "the failed answer left nothing")
        var check = ""
        try memory.withConnection { (connection) throws(StateStoreError) in
            try connection.run("PRAGMA quick_check") { if case .text(let text) = $0.first { check = text } }
        }
        #expect(check == "ok")
    }
}
