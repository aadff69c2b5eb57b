/// Writes JSON straight into bytes, as one pass over the values: no tree of the whole document
/// in between. Two layouts, each the one Foundation's JSONEncoder writes: pretty-printed, with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (two-space indent, `"key" : value`,
/// empty containers on two lines), and `compact` (no whitespace at all), which a report uses
/// for the values it wants on one line each. Keys are written in the order the caller gives,
/// and `sortMembers` puts an object's in order when they were not.
struct JSONWriter: ~Copyable {
    // No default value: a stored property's default is made in every initializer, also the one
    // given a buffer (a 4 KiB allocation made and freed for every result).
    private(set) var buffer: ByteBuffer
    private(set) var depth = 0
    /// Whether the innermost open container has no member yet.
    private var empty = true
    /// No whitespace from here on (until set back): the value written is one line.
    var compact = false

    /// What the bytes of a member's separator and key depend on: the depth when pretty-printed,
    /// nothing when compact (-1). Key lines worked out beforehand are kept per layout.
    var layout: Int { compact ? -1 : depth }

    init() {
        buffer = ByteBuffer()
    }

    /// A fragment to be placed as a member of a container `depth` levels deep, written
    /// elsewhere: values are indented as they would be there.
    init(fragmentDepth depth: Int) {
        buffer = ByteBuffer()
        self.depth = depth
    }

    /// Writes a fragment (see `init(fragmentDepth:)`) at the end of `bytes`, which the writer
    /// owns meanwhile (moved, not copied).
    static func appending(to bytes: inout ByteBuffer, fragmentDepth depth: Int, _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(buffer: bytes, depth: depth)
        body(&writer)
        bytes = writer.buffer
    }

    private init(buffer: consuming ByteBuffer, depth: Int) {
        self.buffer = buffer
        self.depth = depth
    }

    /// A copy of what has been written.
    var bytes: [UInt8] { buffer.array }

    /// Bytes written so far (where the next value starts).
    var count: Int { buffer.count }

    /// Writes again, as the value here, what was written for a part equal to `part` at this
    /// depth (`RepeatedParts`); false when there is nothing kept for it.
    mutating func writeAgain<Part: Equatable>(_ part: Part, from parts: RepeatedParts, secrets: Int) -> Bool {
        parts.writeAgain(part, layout: layout, secrets: secrets, to: &buffer)
    }

    /// Keeps what was written from `start` as the value of `part` at this depth.
    func keep<Part: Equatable>(_ part: Part, from start: Int, in parts: RepeatedParts, secrets: Int) {
        parts.keep(part, layout: layout, secrets: secrets, from: start, of: buffer)
    }

    /// Writes what has been written so far to `output` and empties the writer; open
    /// containers stay open (a document written in pieces).
    mutating func drain(into output: inout FileOutput) {
        buffer.withUnsafeBytes { output.write(UnsafeRawBufferPointer($0)) }
        buffer.removeAll()
    }

    // MARK: Containers

    /// Starts the next member of the innermost object: `"name" : `, then its value follows.
    mutating func key(_ name: String) {
        nextMember()
        string(name)
        keySeparator()
    }

    /// As `key(_:)`, with what it writes worked out beforehand by `memberLine(_:depth:to:)`.
    /// One copy, for the separator, the indent and the key.
    mutating func key(line: UnsafeBufferPointer<UInt8>) {
        // The line starts with the comma that all members but the first have.
        buffer.append(empty ? UnsafeBufferPointer(rebasing: line.dropFirst()) : line)
        empty = false
    }

    /// Appends to `lines` what `key(name)` writes for a member of an object in `layout` (a
    /// depth, or -1 for compact; see `layout`) that is not its first (for the first,
    /// `key(lines:_:)` leaves out the comma).
    static func memberLine(_ name: String, layout: Int, to lines: inout [UInt8]) {
        var writer = JSONWriter(fragmentDepth: max(layout, 0))
        writer.compact = layout < 0
        writer.empty = false
        writer.key(name)
        lines += writer.bytes
    }

    /// Where each member of the innermost open object starts (before its separator), given
    /// where the object's first member starts: found in the bytes, so that members written one
    /// after another need not be tracked. A member's line is the only one at the object's
    /// indent that starts with a quote (a nested value's lines are indented further, or start
    /// with its closing bracket), and a newline is always layout (strings escape theirs).
    func memberStarts(from start: Int) -> [Int] {
        if compact { return compactMemberStarts(from: start) }
        var starts: [Int] = []
        let indent = depth * 2
        var index = start
        while index < buffer.count {
            if buffer[index] == Self.newline, index + indent + 1 < buffer.count,
               ((index + 1)..<(index + 1 + indent)).allSatisfy({ buffer[$0] == 0x20 }),
               buffer[index + 1 + indent] == UInt8(ascii: "\"")
            {
                // Before the separator: the comma when there is one.
                starts.append(index > start ? index - 1 : index)
                index += indent + 1
            } else {
                index += 1
            }
        }
        return starts
    }

    /// `memberStarts` in the compact layout: the first member starts at `start`, each other at
    /// the comma before it, a comma outside strings at the object's own level.
    private func compactMemberStarts(from start: Int) -> [Int] {
        guard start < buffer.count else { return [] }
        var starts = [start]
        var nesting = 0
        var inString = false
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1  // the escaped byte (a quote, a backslash) is not structure
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): nesting -= 1
                case UInt8(ascii: ","): if nesting == 0 { starts.append(index) }
                default: break
                }
            }
            index += 1
        }
        return starts
    }

    private mutating func keySeparator() {
        if compact { buffer.append(UInt8(ascii: ":")) } else { buffer.append(" : ") }
    }

    enum Container {
        case object, array
    }

    /// Opens a container that `close(_:)` ends, for a document written in pieces; members of
    /// an array start with `element()`, of an object with `key(_:)`.
    mutating func open(_ container: Container) {
        buffer.append(container == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        depth += 1
        empty = true
    }

    /// Closes the innermost open container, which is a `container`.
    mutating func close(_ container: Container) {
        depth -= 1
        if !compact {
            // JSONEncoder writes an empty container as its brackets on two lines, a blank between.
            if empty { buffer.append(Self.newline) }
            newlineAndIndent()
        }
        buffer.append(container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        empty = false
    }

    /// Starts the next element of the innermost array; its value follows.
    mutating func element() {
        nextMember()
    }

    /// Puts the members of the innermost open object in key order, given each member's key and
    /// where it starts in `bytes` (before its separator). Nothing moves when they already are.
    mutating func sortMembers(_ members: [(key: String, start: Int)]) {
        guard members.count > 1, zip(members, members.dropFirst()).contains(where: { $0.key > $1.key }) else { return }
        // Newline and indent (none when compact); all but the first also have a comma.
        let separator = compact ? 0 : 1 + depth * 2
        let first = members[0].start
        let written = buffer.withUnsafeBytes { Array($0[first...]) }
        var contents: [(key: String, bytes: ArraySlice<UInt8>)] = []
        for (index, member) in members.enumerated() {
            let from = member.start - first + separator + (index == 0 ? 0 : 1)
            let to = index + 1 < members.count ? members[index + 1].start - first : written.count
            contents.append((member.key, written[from..<to]))
        }
        buffer.truncate(to: first)
        for (index, member) in contents.sorted(by: { $0.key < $1.key }).enumerated() {
            if compact {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
            } else {
                ByteText.lineBreak(comma: index > 0, indent: depth * 2, to: &buffer)
            }
            member.bytes.withUnsafeBufferPointer { buffer.append($0) }
        }
    }

    /// The newline that ends a document.
    mutating func endDocument() {
        buffer.append(Self.newline)
    }

    /// Members written elsewhere (spliced in by the caller) now sit in the innermost container.
    mutating func containsSplicedMembers() {
        empty = false
    }

    private mutating func nextMember() {
        if compact {
            if !empty { buffer.append(UInt8(ascii: ",")) }
        } else {
            ByteText.lineBreak(comma: !empty, indent: depth * 2, to: &buffer)
        }
        empty = false
    }

    private mutating func newlineAndIndent() {
        ByteText.lineBreak(comma: false, indent: depth * 2, to: &buffer)
    }

    private static let newline = UInt8(ascii: "\n")

    // MARK: Values

    mutating func string(_ value: String) {
        ByteText.withUTF8(value) { string(utf8: $0) }
    }

    /// A string given as its UTF-8: quoted, with `"`, `\` and the C0 controls escaped as
    /// JSONEncoder escapes them; every other byte (`/`, DEL, all of non-ASCII) is copied as is.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        escapedContents(utf8)
        buffer.append(UInt8(ascii: "\""))
    }

    /// `utf8` escaped as `string(utf8:)` does, without the quotes.
    private mutating func escapedContents(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Runs of bytes that need no escape (nearly every string is one run) are copied whole.
        var start = 0
        var index = Self.plainPrefix(utf8)
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            index += 1
        }
        buffer.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// How many bytes at the start of `utf8` need no escape, looked at eight at a time (the
    /// rest, fewer than eight or from the first that needs one, byte by byte).
    static func plainPrefix(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while index + 8 <= utf8.count, !needsEscape(ByteText.word(utf8, at: index)) {
            index += 8
        }
        return index
    }

    /// Whether any of the eight bytes in `word` is below 0x20, a quote or a backslash.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        ByteText.bytes(below: 0x20, in: word) | ByteText.bytes(equalTo: UInt8(ascii: "\""), in: word)
            | ByteText.bytes(equalTo: UInt8(ascii: "\\"), in: word) != 0
    }

    private mutating func escape(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            buffer.append(UInt8(ascii: "u"))
            buffer.append(0x30)
            buffer.append(0x30)
            buffer.append(Self.hex(byte >> 4))
            buffer.append(Self.hex(byte & 0x0F))
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : UInt8(ascii: "a") + nibble - 10
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    /// One string made of `pieces` (each handed to the closure it is given), each escaped as
    /// it is copied: the same bytes as `string` of the pieces joined, without joining them.
    mutating func string(pieces: ((String) -> Void) -> Void) {
        buffer.append(UInt8(ascii: "\""))
        pieces { piece in ByteText.withUTF8(piece) { escapedContents($0) } }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Any integer, in decimal (JSONEncoder writes every integer type so).
    mutating func int<Value: BinaryInteger>(_ value: Value) {
        ByteText.decimal(value, to: &buffer)
    }

    mutating func int(_ value: Int) {
        ByteText.decimal(value, to: &buffer)
    }

    mutating func int(_ value: Int?) {
        guard let value else { return null() }
        int(value)
    }

    /// As JSONEncoder writes a Double: its shortest form, without a trailing `.0`. The report's
    /// numbers are made finite first; should one not be, it is written as `null`.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if Self.millesimal(value, to: &buffer) { return }
        shortest(value.description)
    }

    /// Writes `value` and returns true when it is a whole number of thousandths (the report's
    /// milliseconds are rounded to the microsecond) between 0 and 10^12: then its shortest
    /// form, which `description` would work out digit by digit, is those thousandths with the
    /// trailing zeros dropped. The decimal `n / 1000` reads back as `value` exactly when the
    /// division (correctly rounded) gives `value`; below 10^12 two such decimals are further
    /// apart than the doubles near them, so no shorter one reads back the same, and
    /// `description` writes numbers this size without an exponent.
    static func millesimal(_ value: Double, to bytes: inout ByteBuffer) -> Bool {
        guard value >= 0, value < 1e12, value.sign == .plus else { return false }
        let scaled = (value * 1000).rounded()
        guard scaled / 1000 == value else { return false }
        let thousandths = UInt64(scaled)
        ByteText.digits(thousandths / 1000, to: &bytes)
        var fraction = thousandths % 1000
        guard fraction > 0 else { return true }
        var width = 3
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        ByteText.padded(Int(fraction), width: width, to: &bytes)
        return true
    }

    /// As JSONEncoder writes a Float: its own shortest form (not the Double's), without `.0`.
    mutating func float(_ value: Float) {
        guard value.isFinite else { return null() }
        shortest(value.description)
    }

    private mutating func shortest(_ text: String) {
        ByteText.withUTF8(text) { utf8 in
            var count = utf8.count
            if count >= 2, utf8[count - 2] == UInt8(ascii: "."), utf8[count - 1] == UInt8(ascii: "0") { count -= 2 }
            buffer.append(UnsafeBufferPointer(rebasing: utf8[0..<count]))
        }
    }

    mutating func double(_ value: Double?) {
        guard let value else { return null() }
        double(value)
    }

    mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null() }
        bool(value)
    }

    mutating func null() {
        raw("null")
    }

    private mutating func raw(_ text: StaticString) {
        buffer.append(text)
    }
}
