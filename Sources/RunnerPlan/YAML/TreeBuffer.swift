/// A growable run of plain values (node records, child indices) for `TreeBuilder`, and read in
/// place by the `YAMLTree`s made from it.
///
/// An Array checked its uniqueness and capacity on every append and removal, several times
/// for each libyaml event; here an append is a compare and a store. The memory belongs to
/// `owner`, which the trees made from it hold too: it outlives the builder when a tree does.
/// Only plain data goes in (no references: nothing is released).
struct TreeBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int
    /// Frees the memory once neither the builder nor a tree made from it needs it.
    let owner: Owner

    final class Owner {
        fileprivate var memory: UnsafeMutablePointer<Element>

        fileprivate init(_ memory: UnsafeMutablePointer<Element>) {
            self.memory = memory
        }

        deinit { memory.deallocate() }
    }

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        owner = Owner(base)
    }

    @inline(__always)
    subscript(position: Int) -> Element {
        get { elements[position] }
    }

    /// The values so far, in place (valid until the next append).
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func removeLast(_ removed: Int) {
        precondition(removed >= 0 && removed <= count, "removing more than a TreeBuffer holds")
        count -= removed
    }

    mutating func removeAll() { count = 0 }

    @inline(never)
    private mutating func grow() {
        let larger = capacity * 2
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        memory.moveInitialize(from: base, count: count)
        base.deallocate()
        owner.memory = memory
        base = memory
        capacity = larger
    }
}
