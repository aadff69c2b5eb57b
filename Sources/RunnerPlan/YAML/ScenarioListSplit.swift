#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a plan's top-level `scenarios:` list can be cut into pieces that libyaml reads one by
/// one, each on its own core.
///
/// This looks at bytes only, line by line, and proposes a cut; it knows no YAML beyond
/// indentation. The loader proves the proposal by parsing (see `ParallelPlanLoad`). A cut inside a
/// multi-line quoted string or flow collection leaves the piece before it unterminated, which
/// libyaml always refuses. Any refusal sends the plan through the one-core path, so its
/// errors are reported exactly as before.
///
/// The shape it looks for, which is how plans are written:
/// ```
/// scenarios:          ← at column 1, nothing after the colon but spaces or a comment
///   - name: first     ← items: `-` at one column, then a space or the end of the line
///     …               ← anything deeper, blank lines, comment lines
///   - name: second
/// defaults: …         ← the list ends at the first other line at or left of the `-`
/// ```
struct ScenarioListSplit {
    /// One piece of the list: whole items, from an item's `-` line to the next piece.
    struct Piece {
        /// Bytes of the plan file.
        var bytes: Range<Int>
        /// The file line of the piece's first byte, counted from 0.
        var firstLine: Int
        /// Scenarios of the list before this piece, as counted from the lines.
        var itemsBefore: Int
        /// Item lines in the piece, as counted from the lines (parsing must agree).
        var items: Int
    }

    /// The list's bytes: from its first item line up to the first line after it.
    var list: Range<Int>
    /// The file line of `list.lowerBound`, counted from 0 (the line after `scenarios:`, or later).
    var firstLine: Int
    /// Lines the list spans.
    var lineCount: Int
    /// The 1-based file line of `scenarios:`.
    var keyLine: Int
    /// The 0-based column of the items' `-`.
    var indent: Int
    var pieces: [Piece]

    /// Splits the list into about `pieces` parts of at least `minimumPieceBytes` each; nil when
    /// the plan is not of the shape above, holds line breaks other than `\n` (they would shift
    /// line numbers), or is too small to be worth more than one piece.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, pieces wanted: Int, minimumPieceBytes: Int) {
        guard wanted >= 2, let base = bytes.baseAddress, !Self.hasOtherLineBreaks(bytes) else { return nil }
        let end = bytes.count
        var lines = LineCursor(base: base, end: end)

        // The `scenarios:` line, at column 1.
        while !lines.atEnd, !Self.isListKey(lines.current, in: bytes) { lines.advance() }
        guard !lines.atEnd else { return nil }
        keyLine = lines.number + 1
        lines.advance()

        // The first item decides the items' column.
        while !lines.atEnd, Self.isBlankOrComment(lines.current, in: bytes) { lines.advance() }
        guard !lines.atEnd, let column = Self.itemColumn(lines.current, in: bytes) else { return nil }
        indent = column
        let listStart = lines.current.lowerBound
        firstLine = lines.number

        // Every item line, then the line that ends the list.
        var itemStarts: [(offset: Int, line: Int)] = []
        scan: while !lines.atEnd {
            let line = lines.current
            switch Self.classify(line, in: bytes, indent: column) {
            case .inside: break
            case .item: itemStarts.append((line.lowerBound, lines.number))
            case .outside: break scan
            }
            lines.advance()
        }
        list = listStart..<(lines.atEnd ? end : lines.current.lowerBound)
        lineCount = lines.number - firstLine

        // Cut at the first item line at or after each equal share of the bytes; at every item
        // line when there are no more items than pieces wanted.
        let count = min(wanted, list.count / max(minimumPieceBytes, 1), itemStarts.count)
        guard count >= 2 else { return nil }
        var starts: [Int] = [0]
        if count == itemStarts.count { starts = Array(itemStarts.indices) }
        for share in 1..<count where count < itemStarts.count {
            let target = list.lowerBound + list.count * share / count
            var low = starts.last ?? 0, high = itemStarts.count
            while low < high {
                let middle = (low + high) / 2
                if itemStarts[middle].offset < target { low = middle + 1 } else { high = middle }
            }
            let previous = starts.last ?? 0
            if low < itemStarts.count && previous < low { starts.append(low) }
        }
        guard starts.count >= 2 else { return nil }
        let listEnd = list.upperBound
        pieces = starts.indices.map { position in
            let first = starts[position]
            let next = position + 1 < starts.count ? starts[position + 1] : itemStarts.count
            let upper = next < itemStarts.count ? itemStarts[next].offset : listEnd
            return Piece(
                bytes: itemStarts[first].offset..<upper, firstLine: itemStarts[first].line,
                itemsBefore: first, items: next - first)
        }
    }

    /// The plan without the list, for the top level: what comes before `list` and after it.
    /// Its lines from `firstLine` on stand `lineCount` lines further down in the file.
    func head(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(bytes.count - list.count)
        head.append(contentsOf: bytes[..<list.lowerBound])
        head.append(contentsOf: bytes[list.upperBound...])
        return head
    }

    // MARK: Lines

    private enum LineKind {
        /// Deeper than the items, blank, or a comment: part of the current item.
        case inside
        /// `-` at the items' column, then a space or the end of the line.
        case item
        /// Anything else: the list has ended.
        case outside
    }

    private static func classify(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, indent: Int) -> LineKind {
        var index = line.lowerBound
        let limit = min(line.upperBound, line.lowerBound + indent + 1)
        while index < limit, bytes[index] == space { index += 1 }
        let spaces = index - line.lowerBound
        if spaces > indent { return .inside }
        if spaces == indent, isItemMarker(at: index, line: line, in: bytes) { return .item }
        return isBlankOrComment(line, in: bytes) ? .inside : .outside
    }

    private static func isItemMarker(at index: Int, line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard index < line.upperBound, bytes[index] == dash else { return false }
        return index + 1 == line.upperBound || bytes[index + 1] == space
    }

    /// The column of an item line's `-`, or nil when the line is not one.
    private static func itemColumn(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] == space { index += 1 }
        return isItemMarker(at: index, line: line, in: bytes) ? index - line.lowerBound : nil
    }

    private static func isBlankOrComment(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] == space { index += 1 }
        return index == line.upperBound || bytes[index] == hash
    }

    /// `scenarios:` at column 1, then only spaces, or spaces and a comment.
    private static func isListKey(_ line: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = listKey
        guard line.count >= key.count else { return false }
        for offset in 0..<key.count where bytes[line.lowerBound + offset] != key[offset] { return false }
        var index = line.lowerBound + key.count
        while index < line.upperBound, bytes[index] == space { index += 1 }
        return index == line.upperBound || (bytes[index] == hash && index > line.lowerBound + key.count)
    }

    /// Whether libyaml would count a line break that is not `\n`: `\r`, and NEL, LS and PS
    /// (U+0085, U+2028, U+2029), which YAML 1.1 also takes as line breaks.
    private static func hasOtherLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        if memchr(base, Int32(carriageReturn), bytes.count) != nil { return true }
        for lead in [UInt8(0xC2), 0xE2] {
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(lead), bytes.count - from) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if lead == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 { return true }
                if lead == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                   bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { return true }
                from = index + 1
            }
        }
        return false
    }

    private static let listKey = Array("scenarios:".utf8)
    private static let space = UInt8(ascii: " ")
    private static let dash = UInt8(ascii: "-")
    private static let hash = UInt8(ascii: "#")
    private static let carriageReturn = UInt8(ascii: "\r")
}

/// Walks the lines of a buffer (without their `\n`), counting them from 0.
private struct LineCursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    /// The current line's bytes, without its line break.
    private(set) var current: Range<Int>
    private(set) var number = 0
    /// Where the next line starts.
    private var next: Int

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
        current = 0..<0
        next = 0
        load(from: 0)
    }

    /// True once every line has been passed.
    var atEnd: Bool { current.lowerBound >= end }

    mutating func advance() {
        number += 1
        load(from: next)
    }

    private mutating func load(from start: Int) {
        guard start < end else {
            current = end..<end
            next = end
            return
        }
        if let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            current = start..<newline
            next = newline + 1
        } else {
            current = start..<end
            next = end
        }
    }
}
