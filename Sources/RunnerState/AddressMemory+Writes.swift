import Foundation
import RunnerResults

/// What one answer changes in the file: the latest answer's row always; the address rows only
/// when the answer differs from the one before.
struct AnswerWrite: Sendable {
    /// The answer's row, when the run read it from the file.
    var row: Int64?
    /// The answer this write records.
    var answer: AnswerKey
    /// The answer's addresses, sorted, space-separated.
    var addresses: String
    var answered: Int64
    /// False when the answer is the one before, given again: only `answered` moves.
    var changed: Bool
    /// Addresses not in the answer before (or every one, for a first answer).
    var added: [String]
    /// Addresses the answer before held and this one does not, and when they were last returned.
    var left: [String]
    var leftAt: Int64
}

/// The writer's queue, under `AddressMemory.pending`.
struct PendingWrites: Sendable {
    var queued: [AnswerWrite] = []
    /// A drain is scheduled or running on the writer's thread: it takes what is queued.
    var draining = false
    /// The answers whose writes failed since the last `flush()`, and why.
    var notRecorded: [(answers: [AnswerKey], reason: String)] = []
}

extension AddressMemory {
    /// Queues `write` for the writer's thread; answers that come while it commits go together
    /// into its next transaction.
    func enqueue(_ write: AnswerWrite) {
        let startsDrain = pending.withLock { pending in
            pending.queued.append(write)
            guard !pending.draining else { return false }
            pending.draining = true
            return true
        }
        if startsDrain { writer.async { self.drain() } }
    }

    /// Waits until every answer queued so far is in the file, or failed; what became of the
    /// writes since the last call (a failure is said once, here).
    public func flush() -> StateRecording {
        waitForWrites()
        let failures = pending.withLock { pending in
            defer { pending.notRecorded = [] }
            return pending.notRecorded
        }
        var recording = StateRecording(file: path)
        for failure in failures { recording.add(problem: failure.reason, notRecorded: failure.answers) }
        return recording
    }

    /// Waits until the writer's thread has taken, and committed or failed, every answer queued so far.
    func waitForWrites() {
        writer.sync {}
    }

    /// Notes that `answers` are not in the file because of `error`: said by the next `flush()`.
    func notRecorded(_ answers: [AnswerKey], because error: StateStoreError) {
        pending.withLock { $0.notRecorded.append((answers, error.reason)) }
    }

    /// Commits what is queued, group after group, until nothing is.
    private func drain() {
        while true {
            let group = pending.withLock { pending in
                let group = pending.queued
                pending.queued = []
                if group.isEmpty { pending.draining = false }
                return group
            }
            guard !group.isEmpty else { return }
            do throws(StateStoreError) {
                try commit(group)
            } catch {
                // The group's transaction was rolled back whole: none of its answers are in the file.
                notRecorded(group.map(\.answer), because: error)
            }
        }
    }

    private func commit(_ group: [AnswerWrite]) throws(StateStoreError) {
        // The same answers again (most of a steady run) move one time each, by row, in one
        // statement per time: SQLite walks the list, not a statement per answer.
        var sameAgain: [Int64: [Int64]] = [:]
        try checkStillAtPath()
        try transaction { (connection) throws(StateStoreError) in
            for write in group {
                let answer = write.answer
                // The file writes this machine's client as "".
                let key: [SQLiteConnection.Value] = [.text(answer.plan), .text(answer.map), .text(answer.host), .text(answer.client ?? "")]
                guard write.changed else {
                    if let row = write.row {
                        sameAgain[write.answered, default: []].append(row)
                        continue
                    }
                    try connection.run(
                        "UPDATE answer SET answered = max(answered, ?5) WHERE plan = ?1 AND map = ?2 AND host = ?3 AND client = ?4",
                        key + [.integer(write.answered)])
                    continue
                }
                try connection.run(
                    """
                    INSERT INTO answer (plan, map, host, client, addresses, answered) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (plan, map, host, client) DO UPDATE SET addresses = excluded.addresses, answered = excluded.answered
                    """, key + [.text(write.addresses), .integer(write.answered)])
                for address in write.added {
                    try connection.run(
                        """
                        INSERT INTO returned_address (plan, map, host, client, address, family, first_returned, last_returned)
                        VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
                        ON CONFLICT (plan, map, host, client, address) DO UPDATE SET last_returned = NULL
                        """, key + [.text(address), .integer(address.contains(":") ? 6 : 4), .integer(write.answered)])
                }
                for address in write.left {
                    try connection.run(
                        """
                        UPDATE returned_address SET last_returned = ?6
                        WHERE plan = ?1 AND map = ?2 AND host = ?3 AND client = ?4 AND address = ?5 AND last_returned IS NULL
                        """, key + [.text(address), .integer(write.leftAt)])
                }
            }
            for (answered, rows) in sameAgain {
                try connection.run(
                    "UPDATE answer SET answered = max(answered, ?1) WHERE id IN (SELECT value FROM json_each(?2))",
                    [.integer(answered), .text("[" + rows.map(String.init).joined(separator: ",") + "]")])
            }
        }
    }
}
