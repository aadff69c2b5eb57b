import Foundation
import RunnerResults

/// One run's answers for one plan, on the run's thread: the first answer of a map reads what the
/// file remembers of it (each latest answer, and the addresses that left within the window) in
/// two queries; every answer is then compared against that in memory, and only what it changes
/// is queued for the file. A run that gets the answers it got last time writes one row per
/// answer, and reads no address row but those that left.
public final class AddressRecording {
    private let memory: AddressMemory
    private let plan: String
    /// Each map's answers, by map, once read; the map answered last is kept apart (a run's
    /// answers come map after map: no lookup of its name, and no move in and out of the table,
    /// for each answer).
    private var maps: [String: [AnswerKey: Remembered]] = [:]
    private var currentMap: String?
    private var currentAnswers: [AnswerKey: Remembered] = [:]
    /// The answers whose address rows this run has queued: a read of them waits for the writer.
    private var added: Set<AnswerKey> = []

    init(memory: AddressMemory, plan: String) {
        self.memory = memory
        self.plan = plan
    }

    /// What the file held of an answer when the run first asked its map, kept up to date
    /// with the run's own answers.
    private struct Remembered {
        /// The latest answer's addresses as written (sorted, space-separated); "" before the first.
        var addresses = ""
        /// When the latest answer was last given.
        var answered: Int64 = 0
        /// The latest answer's row in the file, when read from it.
        var row: Int64?
        /// The addresses that left the answer since the window's start when read, or during the run.
        var left: [ReturnedAddress] = []
    }

    /// Records that `answer`'s service (an answer of this recording's plan) returned `addresses`
    /// at `date`, and returns what it returned since `date - window` and no longer does, the
    /// most recently returned first. An answer that cannot be compared (the file cannot be read)
    /// is not recorded, and the run's `flush()` says so.
    public func answer(
        _ answer: AnswerKey, addresses: [String], at date: Date, window: Duration
    ) throws(StateStoreError) -> [ReturnedAddress] {
        do throws(StateStoreError) {
            return try record(answer, addresses: addresses, at: date, window: window)
        } catch {
            memory.notRecorded([answer], because: error)
            throw error
        }
    }

    /// `answer(_:addresses:at:window:)` for `map`'s answer for `host` as `client` (nil: this machine).
    public func answer(
        map: String, host: String, client: String?, addresses: [String], at date: Date, window: Duration
    ) throws(StateStoreError) -> [ReturnedAddress] {
        try answer(AnswerKey(plan: plan, map: map, host: host, client: client), addresses: addresses, at: date, window: window)
    }

    private func record(
        _ key: AnswerKey, addresses: [String], at date: Date, window: Duration
    ) throws(StateStoreError) -> [ReturnedAddress] {
        guard !addresses.isEmpty else { return [] }
        let now = date.unixSeconds
        let since = now - Int64(window.components.seconds)
        // Taken out while changed (swapped or removed, never copied): a copy left in `maps` or
        // `currentAnswers` would make each answer copy the map's whole table.
        var answers: [AnswerKey: Remembered] = [:]
        if currentMap == key.map {
            swap(&answers, &currentAnswers)
        } else {
            if let previous = currentMap.take() {
                maps[previous] = currentAnswers
                currentAnswers = [:]
            }
            if let stored = maps.removeValue(forKey: key.map) {
                answers = stored
            } else {
                answers = try read(map: key.map, since: since)
            }
        }
        defer {
            currentMap = key.map
            swap(&answers, &currentAnswers)
        }
        var sorted = addresses.sorted()
        sorted.removeDuplicatesInOrder()
        var write = AnswerWrite(
            row: nil, answer: key, addresses: Self.written(sorted), answered: now, changed: false, added: [], left: [],
            leftAt: 0)
        // One look-up: the entry is changed where it lies.
        let left = try compare(&answers[key, default: Remembered()], with: sorted, into: &write)
        memory.enqueue(write)
        guard !left.isEmpty else { return [] }
        return left.filter { $0.lastReturned.unixSeconds >= since }
            .sorted { ($0.lastReturned, $1.address) > ($1.lastReturned, $0.address) }
    }

    /// An answer's addresses as the file writes them: sorted, a space between. Made at its size
    /// in one string (`joined(separator:)` took ~8k instructions for ten addresses, and every
    /// answer of every run makes one).
    static func written(_ sorted: [String]) -> String {
        let count = sorted.reduce(max(0, sorted.count - 1)) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for (index, address) in sorted.enumerated() {
                if index > 0 {
                    buffer[at] = UInt8(ascii: " ")
                    at += 1
                }
                // In place for a native string; copied out for any other.
                at = address.utf8.withContiguousStorageIfAvailable { bytes in
                    UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: bytes) + at
                } ?? buffer[at...].initialize(fromContentsOf: address.utf8)
            }
            return at
        }
    }

    /// Fills `write` with what `sorted` changes against `remembered`, which becomes it; the
    /// addresses that have left it.
    private func compare(
        _ remembered: inout Remembered, with sorted: [String], into write: inout AnswerWrite
    ) throws(StateStoreError) -> [ReturnedAddress] {
        write.row = remembered.row
        defer {
            remembered.addresses = write.addresses
            remembered.answered = write.answered
        }
        guard remembered.addresses != write.addresses else { return remembered.left }
        // The answer changed (or is the first): which addresses came, and which left.
        let current = Set(sorted)
        let previous = Set(remembered.addresses.split(separator: " ").map(String.init))
        write.changed = true
        write.added = sorted.filter { !previous.contains($0) }
        write.left = previous.subtracting(current).sorted()
        remembered.left.removeAll { current.contains($0.address) }
        if !write.left.isEmpty {
            write.leftAt = remembered.answered
            remembered.left += try justLeft(write.answer, addresses: write.left, lastReturned: remembered.answered)
        }
        if !write.added.isEmpty { added.insert(write.answer) }
        return remembered.left
    }

    /// The map's latest answers, and the addresses that left one since `since`.
    private func read(map: String, since: Int64) throws(StateStoreError) -> [AnswerKey: Remembered] {
        // Another plan's, or the last cycle's, answers may still be on their way to the file.
        memory.waitForWrites()
        var answers: [AnswerKey: Remembered] = [:]
        try memory.withReader { (connection) throws(StateStoreError) in
            try connection.run(
                "SELECT host, client, addresses, answered, id FROM answer WHERE plan = ? AND map = ?", [.text(plan), .text(map)]
            ) { columns in
                guard columns.count == 5, case .text(let host) = columns[0], case .text(let client) = columns[1],
                    case .text(let addresses) = columns[2], case .integer(let answered) = columns[3], case .integer(let row) = columns[4]
                else { return }
                let key = AnswerKey(plan: plan, map: map, host: host, client: client.isEmpty ? nil : client)
                answers[key] = Remembered(addresses: addresses, answered: answered, row: row)
            }
            try connection.run(
                """
                SELECT host, client, address, family, first_returned, last_returned FROM returned_address
                WHERE plan = ? AND map = ? AND last_returned IS NOT NULL AND last_returned >= ?
                """, [.text(plan), .text(map), .integer(since)]
            ) { columns in
                guard let row = returned(columns, map: map) else { return }
                answers[row.answer, default: Remembered()].left.append(row)
            }
        }
        return answers
    }

    /// The rows of `addresses`, which leave `key`'s answer now (their first time is in the file).
    private func justLeft(
        _ key: AnswerKey, addresses: [String], lastReturned: Int64
    ) throws(StateStoreError) -> [ReturnedAddress] {
        // This run's own earlier answer for the key may have added them.
        if added.contains(key) { memory.waitForWrites() }
        let leaving = Set(addresses)
        var rows: [ReturnedAddress] = []
        try memory.withReader { (connection) throws(StateStoreError) in
            try connection.run(
                """
                SELECT host, client, address, family, first_returned, ?5 FROM returned_address
                WHERE plan = ?1 AND map = ?2 AND host = ?3 AND client = ?4 AND last_returned IS NULL
                """, [.text(key.plan), .text(key.map), .text(key.host), .text(key.client ?? ""), .integer(lastReturned)]
            ) { columns in
                if let row = returned(columns, map: key.map), leaving.contains(row.address) { rows.append(row) }
            }
        }
        return rows
    }

    /// A row of host, client, address, family, first and last returned.
    private func returned(_ columns: [SQLiteConnection.Value], map: String) -> ReturnedAddress? {
        guard columns.count == 6, case .text(let host) = columns[0], case .text(let client) = columns[1],
            case .text(let address) = columns[2], case .integer(let family) = columns[3],
            case .integer(let first) = columns[4], case .integer(let last) = columns[5]
        else { return nil }
        return ReturnedAddress(
            answer: AnswerKey(plan: plan, map: map, host: host, client: client.isEmpty ? nil : client), address: address,
            family: Int(family), firstReturned: Date(unixSeconds: first), lastReturned: Date(unixSeconds: last))
    }
}

extension Array where Element: Equatable {
    /// Drops each element equal to the one before it (of a sorted array: its duplicates).
    mutating func removeDuplicatesInOrder() {
        var kept = 0
        for index in indices where kept == 0 || self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}
