/// Bytes appended into memory of the buffer's own, through a pointer. The reports append a
/// hundred pieces or so per result; an Array's `append(contentsOf:)` costs about 90
/// instructions a call around the copy (uniqueness, growth, its iterator's checks), here it is
/// a capacity check. Not copyable: it has one owner, so there is no copy-on-write to check
/// either, and its memory goes with it.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// A copy of the bytes, for what wants an array (tests, the rare slow path).
    var array: [UInt8] { withUnsafeBytes { Array($0) } }

    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "ByteBuffer index out of range")
        return base[index]
    }

    mutating func reserveCapacity(_ minimum: Int) {
        if minimum > capacity { grow(to: minimum) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// ASCII or UTF-8 written as it is (a literal: no array is made for it).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// The UTF-8 of `text`.
    mutating func append(utf8 text: String) {
        ByteText.withUTF8(text) { append($0) }
    }

    mutating func append(_ other: borrowing ByteBuffer) {
        other.withUnsafeBytes { append($0) }
    }

    /// `count` copies of `byte`.
    mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        if self.count + count > capacity { grow(to: self.count + count) }
        (base + self.count).initialize(repeating: byte, count: count)
        self.count += count
    }

    /// Drops every byte from `index` on.
    mutating func truncate(to index: Int) {
        precondition(index >= 0 && index <= count, "ByteBuffer truncated past its end")
        count = index
    }

    /// Empties the buffer; its memory is kept for what comes next.
    mutating func removeAll() {
        count = 0
    }

    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
