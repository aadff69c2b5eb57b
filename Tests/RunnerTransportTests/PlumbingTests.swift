import Foundation
import Testing

@testable import RunnerTransport

@Suite("Engine plumbing", .timeLimit(.minutes(3)))
struct PlumbingTests {
    @Test("the queue is FIFO across growth and wrap-around")
    func ringBuffer() {
        var queue = RingBuffer<Int>()
        var expected: [Int] = []
        var popped: [Int] = []
        for round in 0..<5 {
            for value in 0..<(13 * (round + 1)) {
                queue.append(round * 1000 + value)
                expected.append(round * 1000 + value)
            }
            for _ in 0..<7 { if let value = queue.popFirst() { popped.append(value) } }
        }
        while let value = queue.popFirst() { popped.append(value) }
        #expect(popped == expected)
        #expect(queue.isEmpty)
    }

    @Test("SHA-256 streamed in pieces equals the whole; the digest is reusable")
    func sha256() throws {
        let digest = try SHA256Digest()
        #expect(digest.finish() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest.reset())
        let text = Array("abc".utf8)
        _ = text[..<1].withUnsafeBytes { digest.update($0) }
        _ = text[1...].withUnsafeBytes { digest.update($0) }
        #expect(digest.finish() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("hex is lower-case, two digits per byte")
    func hex() {
        #expect([UInt8]([0, 9, 10, 255]).withUnsafeBytes { lowercaseHex($0) } == "00090aff")
    }

    @Test("pools: reused by key, idle ones beyond the limit closed least recently used first, busy ones never")
    func pools() throws {
        let pools = ConnectionPools(idleLimit: 2)
        let a = try pools.checkOut("a")
        #expect(try pools.checkOut("a") === a)
        let b = try pools.checkOut("b")
        let c = try pools.checkOut("c")
        let busy = try pools.checkOut("busy")
        pools.checkIn(a)
        pools.checkIn(a)
        pools.checkIn(b)
        #expect(pools.count == 4)
        pools.checkIn(c)  // a third idle pool: "a" (least recently used) is closed
        #expect(pools.count == 3)
        #expect(try pools.checkOut("a") !== a)
        #expect(try pools.checkOut("busy") === busy)
    }

    @Test("pools: keys taking turns (a scenario's addresses), more of them than are remembered, each keep their pool")
    func keysTakingTurns() throws {
        let pools = ConnectionPools(idleLimit: 64)
        let keys: [PoolKey] = ["1", "2", "3", "4", "5", "6"]
        let first = try keys.map { try pools.checkOut($0) }
        for round in 0..<3 {
            for (index, key) in keys.enumerated().reversed() {
                #expect(try pools.checkOut(key) === first[index], "round \(round), key \(key)")
            }
            for (index, key) in keys.enumerated() where index % 2 == 0 {
                #expect(try pools.checkOut(key) === first[index], "round \(round), key \(key)")
            }
        }
        #expect(pools.count == keys.count)
    }

    @Test("pools: the pool checked out last, closed for being idle, is not handed out again")
    func lastPoolClosed() throws {
        let pools = ConnectionPools(idleLimit: 0)
        let first = try pools.checkOut("k")
        #expect(try pools.checkOut("k") === first, "the same key again: the same pool")
        pools.checkIn(first)
        pools.checkIn(first)  // idle beyond the limit of 0: closed
        #expect(pools.count == 0)
        let second = try pools.checkOut("k")
        #expect(second !== first)
        #expect(pools.count == 1)
    }
}
