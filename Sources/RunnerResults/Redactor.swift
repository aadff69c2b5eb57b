import Foundation
import Synchronization
import RunnerVocabulary

/// Masks secret values (from `${secret:…}`, and `secret: true` captures as a run makes them)
/// as `***` in any text bound for a person or a file.
///
/// A secret also travels encoded — percent-encoded in a URL, base64 in a Basic `Authorization`
/// header, escaped in a JSON body that echoes it — so those forms are masked too
/// (`SecretForms`).
///
/// Text is masked whole before anything cuts it: an excerpt taken first could end inside a
/// secret, leaving all but its last characters to read (the Verdict stage masks, then quotes).
///
/// One instance is shared by every channel of a run: a secret captured on the engine's thread
/// is added before the result that captured it reaches any of them.
public final class Redactor: @unchecked Sendable {
    public static let mask = "***"

    private let lock = NSLock()
    private var table = FormTable()
    /// Secrets added whose forms `table` does not hold yet: they are made when a text is next
    /// masked. A run whose results all pass quietly masks nothing, and a flow may capture a
    /// secret token for every login (its forms cost more than the capture itself).
    private var pending: [String] = []
    /// Every secret added, each once: one captured again (a login that hands out the same
    /// token) changes nothing.
    private var secrets: Set<String> = []
    /// How many secrets `secrets` holds, readable without the lock: a run without secrets (most
    /// runs) masks nothing, and every value of every report asks.
    private let added = Atomic<Int>(0)
    /// The secrets that have a name (`${secret:NAME}`, a capture's name), longest value first:
    /// what a reproduction writes as `"$NAME"`.
    private var named: [SecretValue] = []
    /// `named`'s values, so a run that captures thousands of secrets does not compare each new
    /// one with all the others.
    private var namedValues: Set<String> = []

    /// Masks these values; nothing names them, so a reproduction shows them masked too.
    public init(secrets: [String]) {
        for secret in secrets where !secret.isEmpty && self.secrets.insert(secret).inserted { table.add(secret: secret) }
        added.store(self.secrets.count, ordering: .releasing)
    }

    /// Masks these values; a reproduction refers to each by its name.
    public convenience init(named secrets: [SecretValue]) {
        self.init(secrets: [])
        for secret in secrets { add(secret) }
    }

    /// Every form masked, longest first, so a secret that contains another is masked whole.
    public var forms: [String] { lock.withLock { currentTable().sortedForms } }

    /// The names of the secrets that have one, sorted, each once: what a reproduction's reader
    /// must set in the environment.
    public var secretNames: [String] {
        Array(Set(lock.withLock { named.map(\.name) })).sorted()
    }

    /// Whether there is nothing to mask.
    public var isEmpty: Bool { added.load(ordering: .acquiring) == 0 }

    /// How many different secrets were added: it only grows, as secrets are added, so text
    /// redacted while it was the same is redacted alike (what a report's repeated parts are
    /// kept under).
    public var secretsAdded: Int { added.load(ordering: .acquiring) }

    /// Masks `secret` from now on (a captured value); nothing when it is already masked or empty.
    public func add(_ secret: String) {
        guard !secret.isEmpty else { return }
        lock.withLock { addUnderLock(secret) }
    }

    /// Masks `secret` from now on, and names it in reproductions (the first name a value had stays).
    public func add(_ secret: SecretValue) {
        guard !secret.value.isEmpty else { return }
        lock.withLock {
            addUnderLock(secret.value)
            guard namedValues.insert(secret.value).inserted else { return }
            // After every value as long or longer: `named` stays longest first, ties in the order added.
            let length = secret.value.utf8.count
            var low = 0, high = named.count
            while low < high {
                let middle = (low + high) / 2
                if named[middle].value.utf8.count >= length { low = middle + 1 } else { high = middle }
            }
            named.insert(secret, at: low)
        }
    }

    /// A piece of text on the way to a reproduction: as it is, or a named secret's place.
    public enum Piece: Sendable, Equatable {
        case text(String)
        case secret(name: String)
    }

    /// `text` cut where a named secret's value appears, left to right, the longest value at each
    /// place; the text between is returned as it is (callers still redact it: a secret without a
    /// name, or one in an encoded form, can only be masked).
    public func pieces(of text: String) -> [Piece] {
        let named = lock.withLock { self.named }
        guard !named.isEmpty, !text.isEmpty else { return [.text(text)] }
        var pieces: [Piece] = []
        var rest = text[...]
        while !rest.isEmpty {
            var earliest: (range: Range<Substring.Index>, name: String)?
            for secret in named {
                guard let range = rest.range(of: secret.value) else { continue }
                if earliest.map({ range.lowerBound < $0.range.lowerBound }) ?? true { earliest = (range, secret.name) }
            }
            guard let earliest else { break }
            if earliest.range.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<earliest.range.lowerBound]))) }
            pieces.append(.secret(name: earliest.name))
            rest = rest[earliest.range.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    /// `data` with every form masked, byte for byte (invalid UTF-8 around a secret stays as it was).
    public func redact(_ data: Data) -> Data {
        guard !isEmpty else { return data }
        let table = lock.withLock { currentTable() }
        return table.masking(Array(data)).map { Data($0) } ?? data
    }

    /// `text` with every form of every secret written `***`.
    public func redact(_ text: String) -> String {
        guard !isEmpty else { return text }
        let table = lock.withLock { currentTable() }
        return table.masking(text)
    }

    /// A new secret waits for its forms to be made (under the lock).
    private func addUnderLock(_ secret: String) {
        guard secrets.insert(secret).inserted else { return }
        pending.append(secret)
        added.store(secrets.count, ordering: .releasing)
    }

    /// The table with every secret added so far in it (under the lock): the pending secrets'
    /// forms are made now, once.
    private func currentTable() -> FormTable {
        if !pending.isEmpty {
            for secret in pending { table.add(secret: secret) }
            pending = []
        }
        return table
    }

    /// The forms, indexed by their first four bytes: a text is read once, in bytes (not
    /// characters: a secret followed by a combining mark is still found), and each position is
    /// looked up, so a run that captured a thousand secret tokens does not search every string
    /// thousands of times.
    private struct FormTable {
        /// Every form, in no order.
        var known: Set<String> = []
        /// Forms of four bytes or more by their first four, each list longest first.
        var byPrefix: [UInt32: [[UInt8]]] = [:]
        /// One bit per hash of a four-byte prefix: most positions of a text are passed over
        /// without a dictionary lookup.
        var prefixBits = [UInt64](repeating: 0, count: 1024)
        /// Forms under four bytes, longest first.
        var short: [[UInt8]] = []

        mutating func add(secret: String) {
            guard !secret.isEmpty else { return }
            for form in SecretForms.all(of: secret) { insert(form) }
        }

        /// Every form, longest first (in UTF-8 bytes), then in text order.
        var sortedForms: [String] {
            known.sorted { $0.utf8.count > $1.utf8.count || ($0.utf8.count == $1.utf8.count && $0 < $1) }
        }

        private mutating func insert(_ form: String) {
            guard known.insert(form).inserted else { return }
            let bytes = Array(form.utf8)
            guard bytes.count >= 4 else {
                short.insert(bytes, at: short.firstIndex { $0.count < bytes.count } ?? short.count)
                return
            }
            let key = Self.key(bytes[0], bytes[1], bytes[2], bytes[3])
            var list = byPrefix[key] ?? []
            list.insert(bytes, at: list.firstIndex { $0.count < bytes.count } ?? list.count)
            byPrefix[key] = list
            let bit = Self.bit(key)
            prefixBits[bit >> 6] |= 1 << UInt64(bit & 63)
        }

        static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
            UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24
        }

        static func bit(_ key: UInt32) -> Int { Int((key &* 0x9E37_79B1) >> 16) }

        /// `text` with each form masked, scanning left to right and taking the longest form
        /// that starts at each place.
        func masking(_ text: String) -> String {
            masking(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? text
        }

        /// `bytes` with each form masked; nil when none is there.
        func masking(_ bytes: [UInt8]) -> [UInt8]? {
            let mask = Array(Redactor.mask.utf8)
            var output: [UInt8] = []
            var copiedUpTo = 0
            var index = 0
            while index < bytes.count {
                let length = longestForm(in: bytes, at: index)
                guard length > 0 else {
                    index += 1
                    continue
                }
                output.append(contentsOf: bytes[copiedUpTo..<index])
                output.append(contentsOf: mask)
                index += length
                copiedUpTo = index
            }
            guard copiedUpTo > 0 else { return nil }
            output.append(contentsOf: bytes[copiedUpTo...])
            return output
        }

        /// The length of the longest form that starts at `index`, 0 for none.
        private func longestForm(in bytes: [UInt8], at index: Int) -> Int {
            if index + 4 <= bytes.count {
                let key = Self.key(bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3])
                let bit = Self.bit(key)
                if prefixBits[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let candidates = byPrefix[key] {
                    for form in candidates where Self.matches(form, bytes, at: index) { return form.count }
                }
            }
            for form in short where Self.matches(form, bytes, at: index) { return form.count }
            return 0
        }

        private static func matches(_ form: [UInt8], _ bytes: [UInt8], at index: Int) -> Bool {
            guard index + form.count <= bytes.count else { return false }
            for offset in form.indices where bytes[index + offset] != form[offset] { return false }
            return true
        }
    }
}
