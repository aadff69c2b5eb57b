#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one plan file, checked to be text, plus the line lookups errors need.
struct SourceText: Sendable {
    /// Plans larger than this are refused before they are read whole.
    static let maximumSize = 64 << 20

    /// The path as given to the loader; every location names it verbatim.
    let file: String
    let bytes: [UInt8]

    init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    /// Reads the file at `path`, refusing anything larger than `maximumSize` without reading it all.
    static func load(path: String) throws(PlanError) -> SourceText {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PlanError(location: nil, message: "cannot read plan '\(path)': \(systemError(errno))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw PlanError(location: nil, message: "cannot read plan '\(path)': \(systemError(errno))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PlanError(location: nil, message: "cannot read plan '\(path)': it is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maximumSize {
            throw tooLarge(path)
        }
        // Pipes and devices have no size up front: read at most one byte past the limit.
        var bytes: [UInt8] = []
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 64 << 10
        bytes.reserveCapacity(min(expected, maximumSize) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= maximumSize {
            let wanted = min(chunk.count, maximumSize + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PlanError(location: nil, message: "cannot read plan '\(path)': \(systemError(errno))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.count > maximumSize { throw tooLarge(path) }
        // A UTF-8 byte-order mark is not text: drop it so positions and snippets match what
        // editors show (libyaml, told the encoding, would read it as a character).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return SourceText(file: path, bytes: bytes)
    }

    private static func tooLarge(_ path: String) -> PlanError {
        PlanError(location: nil, message: "plan '\(path)' is larger than 64 MiB; refusing to read it")
    }

    /// The system's words for `code` (`Permission denied`).
    static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Checks the bytes are UTF-8 text without NUL bytes (libyaml would otherwise guess an
    /// encoding from a byte-order mark or stop with a less helpful message).
    func checkText() throws(PlanError) {
        let failure: (offset: Int, message: String)? = bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                // Plans are mostly ASCII: step over 8 bytes at a time while none is NUL or high.
                let raw = UnsafeRawBufferPointer(buffer)
                while index + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let hasZero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                    guard word & 0x8080_8080_8080_8080 == 0, hasZero == 0 else { break }
                    index += 8
                }
                guard index < count else { break }
                let byte = buffer[index]
                if byte < 0x80 {
                    if byte == 0 {
                        return (index, "plan contains a NUL byte; this looks like a binary file, not YAML text")
                    }
                    index += 1
                    continue
                }
                let length = Self.sequenceLength(buffer, at: index)
                if length == 0 {
                    let hex = String(byte, radix: 16, uppercase: true)
                    return (index, "plan is not valid UTF-8 text (byte 0x\(hex.count < 2 ? "0" + hex : hex))")
                }
                index += length
            }
            return nil
        }
        if let failure {
            throw PlanError(location: location(ofByte: failure.offset), message: failure.message)
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 when it is not one.
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = buffer[index]
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(lead & 0x07)
        default: return 0
        }
        guard index + length <= buffer.count else { return 0 }
        for offset in 1..<length {
            let next = buffer[index + offset]
            guard next & 0xC0 == 0x80 else { return 0 }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return 0 }
        return length
    }

    /// The 1-based line and column (in characters, as libyaml counts them) of a byte offset.
    func location(ofByte offset: Int) -> SourceLocation {
        let lines = SourceLines(bytes)
        let line = lines.lineIndex(containingByte: offset)
        let start = lines.starts[line]
        var column = 1
        var index = start
        while index < offset, index < bytes.count {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: file, line: line + 1, column: column)
    }

    /// The byte at a 1-based line and column (columns count characters), if there is one.
    func byte(at mark: YAMLMark) -> UInt8? {
        let lines = SourceLines(bytes)
        guard mark.line >= 1, mark.line <= lines.starts.count else { return nil }
        var index = lines.starts[mark.line - 1]
        var column = 1
        while index < bytes.count, column < mark.column {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index < bytes.count ? bytes[index] : nil
    }

    /// The text of 1-based `line` for a caret snippet, or nil when it would not help
    /// (missing, very long, or holding control characters).
    func snippetLine(_ line: Int, lines: SourceLines) -> String? {
        guard line >= 1, line <= lines.starts.count else { return nil }
        let start = lines.starts[line - 1]
        var end = line < lines.starts.count ? lines.starts[line] : bytes.count
        // Drop the line break itself.
        while end > start, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        guard end - start <= 400 else { return nil }
        var slice = Array(bytes[start..<end])
        for index in slice.indices {
            // A tab counts as one column, as a space does: keep the caret aligned.
            if slice[index] == UInt8(ascii: "\t") { slice[index] = UInt8(ascii: " ") }
            if slice[index] < 0x20 || slice[index] == 0x7F { return nil }
        }
        guard let text = String(validating: slice, as: UTF8.self) else { return nil }
        return text
    }
}

/// Byte offsets where each line starts; line breaks as libyaml counts them.
struct SourceLines: Sendable {
    let starts: [Int]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                index += 1
                starts.append(index)
            } else if byte == UInt8(ascii: "\r") {
                index += 1
                if index < count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                starts.append(index)
            } else if byte == 0xC2, index + 1 < count, bytes[index + 1] == 0x85 {
                index += 2  // NEL
                starts.append(index)
            } else if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80,
                      bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                index += 3  // LINE / PARAGRAPH SEPARATOR
                starts.append(index)
            } else {
                index += 1
            }
        }
        self.starts = starts
    }

    /// The 0-based line holding byte `offset` (binary search).
    func lineIndex(containingByte offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
