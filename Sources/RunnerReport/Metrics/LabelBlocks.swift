/// The label lists of many series, escaped and written once into one buffer and then copied
/// into every sample that carries them: a result's labels appear in ~17 samples.
struct LabelBlocks: ~Copyable {
    private var bytes: ByteBuffer
    /// Where each list starts in `bytes`, and where the last one ends.
    private var bounds: [Int]

    init(count: Int) {
        bytes = ByteBuffer(capacity: max(16, count * 96))
        bounds = [0]
        bounds.reserveCapacity(count + 1)
    }

    /// Adds the next list: `write` appends its labels to the bytes it is given from `start` on.
    mutating func add(_ write: (inout ByteBuffer, _ start: Int) -> Void) {
        write(&bytes, bytes.count)
        bounds.append(bytes.count)
    }

    /// Calls `body` with list `index` (in the order added).
    func withLabels(of index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBytes { all in body(UnsafeBufferPointer(rebasing: all[bounds[index]..<bounds[index + 1]])) }
    }
}
