#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scalar texts of one document, each distinct text stored once as a `String`.
///
/// A plan repeats the same keys and many values thousands of times. Keeping one String per
/// distinct text saves an allocation (and a free) per scalar, keeps a large plan's memory
/// small, and makes equal texts equal indices.
///
/// Texts are told apart byte by byte. Mapping keys are compared as Swift compares strings
/// (canonical equivalence: `é` precomposed or not is one key), through `keyIdentity`.
struct ScalarTexts {
    /// Distinct texts in first-seen order (after `<<` and the known texts); a scalar's index points here.
    private(set) var strings: [String] = []
    /// Whether each text holds `${`, worked out once per distinct text: only such a text can
    /// substitution change, and the decoder asks that of every scalar it reads.
    private(set) var holdsReference: [Bool] = []
    /// Each text's hash, to rehash without reading the texts again.
    private var hashes: [UInt64] = []
    /// Every distinct text's UTF-8, one after another, and where each starts (one more entry
    /// than texts: the last is the end). A lookup compares with these bytes in place: reading
    /// the stored String cost a retain and a release per scalar, and a call to reach its bytes.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    /// Open addressing with linear probing. A slot holds the text's index plus one in its low
    /// half (0: empty) and the top half of the text's hash, so most misses need no byte compare.
    private var slots = [UInt64](repeating: 0, count: 256)

    /// For each text used as a key (-1 for the others, and past the end): the index of the
    /// first key text equal to it as a String. Keys are few, so each is looked up once.
    private var keyIdentities: [Int32] = []
    private var keyIdentityByText: [String: Int32] = [:]

    /// The index and key identity of `<<` (interned first): merge keys are found by comparing
    /// an integer.
    static let mergeKey: Int32 = 0

    /// Interns `<<`, then `knownTexts` (distinct: they get the indices 1, 2, 3…), so their
    /// indices are known up front.
    init(knownTexts: [String]) {
        for text in ["<<"] + knownTexts {
            _ = text.withUTF8Bytes { index(of: $0) }
        }
        // `<<` first, so any key equal to it has `mergeKey` as its identity.
        _ = keyIdentity(of: Self.mergeKey)
    }

    /// The index of `text`, adding it when it is new.
    mutating func index(of text: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = hash(text)
        let tag = hash & Self.tagMask
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            starts.withUnsafeBufferPointer { starts in
                bytes.withUnsafeBufferPointer { stored in
                    while true {
                        let entry = slots[slot]
                        if entry == 0 { return nil }
                        if entry & Self.tagMask == tag {
                            let candidate = Int(truncatingIfNeeded: entry & ~Self.tagMask) - 1
                            let start = starts[candidate]
                            if starts[candidate + 1] - start == text.count, Self.equal(stored, from: start, text) {
                                return candidate
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
        if let found { return Int32(found) }
        let index = strings.count
        strings.append(String(decoding: text, as: UTF8.self))
        bytes.append(contentsOf: text)
        starts.append(bytes.count)
        holdsReference.append(text.containsReference)
        hashes.append(hash)
        slots[slot] = tag | UInt64(index + 1)
        // At most half full keeps probes short.
        if strings.count * 2 > slots.count { grow() }
        return Int32(index)
    }

    private static let tagMask: UInt64 = 0xFFFF_FFFF_0000_0000

    /// The identity of the text at `index` as a key: equal for texts that are equal Strings.
    mutating func keyIdentity(of index: Int32) -> Int32 {
        if let known = knownKeyIdentity(of: index) { return known }
        if keyIdentities.count < strings.count {
            keyIdentities.append(contentsOf: repeatElement(-1, count: strings.count - keyIdentities.count))
        }
        let identity = keyIdentityByText[strings[Int(index)]] ?? index
        if identity == index { keyIdentityByText[strings[Int(index)]] = index }
        keyIdentities[Int(index)] = identity
        return identity
    }

    /// The identity of a text already used as a key (see `keyIdentity(of:)`); nil before that.
    func knownKeyIdentity(of index: Int32) -> Int32? {
        guard Int(index) < keyIdentities.count, keyIdentities[Int(index)] >= 0 else { return nil }
        return keyIdentities[Int(index)]
    }

    /// Random per process, so a plan cannot be written to make its texts collide.
    private let seed = UInt64.random(in: .min ... .max)

    /// A fast multiply-fold hash over 8-byte words (wyhash's mixing step). The standard
    /// `Hasher` (SipHash) costs several times more, and runs for every scalar of a plan.
    private func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(text)
        let count = raw.count
        var state = seed ^ UInt64(count) &* 0x9E37_79B9_7F4A_7C15
        let last: UInt64
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                state = mix(state ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0xA076_1D64_78BD_642F)
                offset += 8
            }
            // The final word overlaps the previous one rather than reading byte by byte.
            last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
            let tail = raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            last = UInt64(head) << 32 | UInt64(tail)
        } else if count > 0 {
            last = UInt64(raw[0]) << 16 | UInt64(raw[count / 2]) << 8 | UInt64(raw[count - 1])
        } else {
            last = 0
        }
        return mix(mix(state ^ last, 0xE703_7ED1_A0B4_28DB), 0x8EBC_6AF0_9C88_C6E3)
    }

    private func mix(_ lhs: UInt64, _ rhs: UInt64) -> UInt64 {
        let product = lhs.multipliedFullWidth(by: rhs)
        return product.high ^ product.low
    }

    /// Whether the stored bytes from `start` (as many as `text` holds) are `text`.
    @inline(__always)
    private static func equal(_ stored: UnsafeBufferPointer<UInt8>, from start: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let storedBase = stored.baseAddress, let textBase = text.baseAddress else { return text.isEmpty }
        return memcmp(storedBase + start, textBase, text.count) == 0
    }

    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = hash & Self.tagMask | UInt64(index + 1)
        }
        slots = larger
    }
}
