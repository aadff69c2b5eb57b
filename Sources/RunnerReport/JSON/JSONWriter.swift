import Foundation

/// Writes pretty-printed JSON straight into bytes, as one pass over the values: no tree of the
/// whole document in between. The layout is the one Foundation's JSONEncoder writes with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (two-space indent, `"key" : value`,
/// empty containers on two lines), so a report keeps its look; keys are written in the order
/// the caller gives, and `sortMembers` puts an object's in order when they were not.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open container has no member yet.
    private var empty = true
    /// The closing bracket of each container opened with `open(_:)` and not yet closed.
    private var closers: [UInt8] = []

    init() {}

    /// A fragment to be placed as a member of a container `depth` levels deep, written
    /// elsewhere: values are indented as they would be there.
    init(fragmentDepth depth: Int) {
        self.depth = depth
    }

    /// What has been written so far, handed over; open containers stay open (a document
    /// written in pieces).
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    // MARK: Containers

    /// Starts the next member of the innermost object: `"name" : `, then its value follows.
    mutating func key(_ name: String) {
        nextMember()
        string(name)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    }

    private mutating func close(with bracket: UInt8) {
        depth -= 1
        // JSONEncoder writes an empty container as its brackets on two lines, a blank between.
        if empty { bytes.append(newline) }
        bytes.append(newline)
        indent()
        bytes.append(bracket)
        empty = false
    }

    enum Container {
        case object, array
    }

    /// Opens a container that `close()` ends, for a document written in pieces; members of
    /// an array start with `element()`.
    mutating func open(_ container: Container) {
        switch container {
        case .object:
            bytes.append(UInt8(ascii: "{"))
            closers.append(UInt8(ascii: "}"))
        case .array:
            bytes.append(UInt8(ascii: "["))
            closers.append(UInt8(ascii: "]"))
        }
        depth += 1
        empty = true
    }

    /// Closes the innermost container opened with `open(_:)`.
    mutating func close() {
        guard let bracket = closers.popLast() else { return }
        close(with: bracket)
    }

    /// Starts the next element of the innermost array; its value follows.
    mutating func element() {
        nextMember()
    }

    /// Puts the members of the innermost open object in key order, given each member's key and
    /// where it starts in `bytes` (before its separator). Nothing moves when they already are.
    mutating func sortMembers(_ members: [(key: String, start: Int)]) {
        guard members.count > 1, zip(members, members.dropFirst()).contains(where: { $0.key > $1.key }) else { return }
        let separator = 1 + depth * 2  // newline and indent; all but the first also have a comma
        let end = bytes.count
        var contents: [(key: String, bytes: ArraySlice<UInt8>)] = []
        for (index, member) in members.enumerated() {
            let from = member.start + separator + (index == 0 ? 0 : 1)
            let to = index + 1 < members.count ? members[index + 1].start : end
            contents.append((member.key, bytes[from..<to]))
        }
        var sorted: [UInt8] = []
        sorted.reserveCapacity(end - members[0].start)
        for (index, member) in contents.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { sorted.append(UInt8(ascii: ",")) }
            sorted.append(newline)
            sorted.append(contentsOf: repeatElement(0x20, count: depth * 2))
            sorted.append(contentsOf: member.bytes)
        }
        bytes.replaceSubrange(members[0].start..<end, with: sorted)
    }

    /// Members written elsewhere (spliced in by the caller) now sit in the innermost container.
    mutating func containsSplicedMembers() {
        empty = false
    }

    private mutating func nextMember() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(newline)
        indent()
        empty = false
    }

    private mutating func indent() {
        for _ in 0..<(depth * 2) { bytes.append(0x20) }
    }

    private let newline = UInt8(ascii: "\n")

    // MARK: Values

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hex(byte >> 4), Self.hex(byte & 0x0F)])
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : UInt8(ascii: "a") + nibble - 10
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func int(_ value: Int?) {
        guard let value else { return null() }
        int(value)
    }

    /// As JSONEncoder writes a Double: its shortest form, without a trailing `.0`. The report's
    /// numbers are made finite first; should one not be, it is written as `null`.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func double(_ value: Double?) {
        guard let value else { return null() }
        double(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        bool(value)
    }

    mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }
}
