/// The connections of one pool key (see `ShareHandle` for why keys never share).
final class ConnectionPool {
    let key: PoolKey
    let share: ShareHandle
    /// Transfers using the pool now; a pool in use is never closed.
    fileprivate(set) var users = 0
    fileprivate var lastUsed: UInt64 = 0
    /// Still among the pools (false once closed for being idle too long).
    fileprivate var isListed = true

    fileprivate init(key: PoolKey) throws(CurlError) {
        self.key = key
        share = try ShareHandle()
    }
}

/// Pool key → pool. Idle pools keep their connections open for reuse, but only so many of
/// them: a plan with thousands of (scenario, strategy, IP) keys would otherwise keep a socket
/// open for each and run out of file descriptors.
final class ConnectionPools {
    private var pools: [PoolKey: ConnectionPool] = [:]
    private var idleCount = 0
    private var tick: UInt64 = 0
    /// Idle pools kept open; beyond that, the least recently used one is closed.
    let idleLimit: Int

    init(idleLimit: Int = 64) { self.idleLimit = max(0, idleLimit) }

    var count: Int { pools.count }

    /// The pools checked out last, newest first: consecutive transfers mostly share a key, or
    /// take turns among a scenario's few addresses (`ips: all`), and comparing a key's few
    /// short strings costs a tenth of hashing them for the dictionary.
    private var recentlyCheckedOut: [ConnectionPool] = []
    private static let recentLimit = 4

    /// The pool for `key` (created on first use), marked in use.
    func checkOut(_ key: PoolKey) throws(CurlError) -> ConnectionPool {
        tick += 1
        for (index, pool) in recentlyCheckedOut.enumerated() where pool.key == key {
            if index > 0 { remember(recentlyCheckedOut.remove(at: index)) }
            return markInUse(pool)
        }
        if let pool = pools[key] {
            remember(pool)
            return markInUse(pool)
        }
        let pool = try ConnectionPool(key: key)
        pool.users = 1
        pool.lastUsed = tick
        pools[key] = pool
        remember(pool)
        return pool
    }

    private func remember(_ pool: ConnectionPool) {
        if recentlyCheckedOut.count == Self.recentLimit { recentlyCheckedOut.removeLast() }
        recentlyCheckedOut.insert(pool, at: 0)
    }

    private func markInUse(_ pool: ConnectionPool) -> ConnectionPool {
        if pool.users == 0 { idleCount -= 1 }
        pool.users += 1
        pool.lastUsed = tick
        return pool
    }

    /// A transfer is done with `pool`.
    func checkIn(_ pool: ConnectionPool) {
        tick += 1
        pool.users -= 1
        pool.lastUsed = tick
        if pool.users == 0 {
            idleCount += 1
            if idleCount > idleLimit { closeLeastRecentlyUsedIdle() }
        }
    }

    /// O(pools), but only when a pool goes idle beyond the limit.
    private func closeLeastRecentlyUsedIdle() {
        var oldest: ConnectionPool?
        for pool in pools.values where pool.users == 0 {
            if oldest.map({ pool.lastUsed < $0.lastUsed }) ?? true { oldest = pool }
        }
        guard let oldest else { return }
        // Idle transfers have detached from their pools, so this is the last reference:
        // the share closes its connections now.
        pools[oldest.key] = nil
        oldest.isListed = false
        recentlyCheckedOut.removeAll { $0 === oldest }
        idleCount -= 1
    }
}
