/// A FIFO queue with O(1) push and pop (Array.removeFirst would be O(n) per transfer).
struct RingBuffer<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        // Moved out, not copied and then destroyed in its slot.
        let element = storage[head].take()
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: max(16, storage.count * 2))
        for offset in 0..<count { larger[offset] = storage[(head + offset) % storage.count] }
        storage = larger
        head = 0
    }
}
