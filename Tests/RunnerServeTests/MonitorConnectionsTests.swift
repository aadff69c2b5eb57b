import Testing

@testable import RunnerServe

/// `MonitorConnections`: past the cap, the oldest connection not being answered is closed for the new one.
@Suite struct MonitorConnectionsTests {
    /// Open connections, oldest first: whether each may be closed, the cap, and the index to close.
    struct Case: Sendable, CustomTestStringConvertible {
        var evictable: [Bool]
        var cap: Int
        var victim: Int?
        var testDescription: String { "\(evictable) cap \(cap) → \(victim.map(String.init) ?? "none")" }
    }

    @Test(arguments: [
        Case(evictable: [], cap: 1, victim: nil),
        Case(evictable: [true, true, true], cap: 3, victim: nil),
        Case(evictable: [false, false, false], cap: 3, victim: nil),
        Case(evictable: [true, true, true, true], cap: 3, victim: 0),
        Case(evictable: [false, true, true, true], cap: 3, victim: 1),
        Case(evictable: [false, false, true, true], cap: 3, victim: 2),
        // Every other one is being answered: the newcomer itself goes.
        Case(evictable: [false, false, false, true], cap: 3, victim: 3),
        Case(evictable: [false, true], cap: 1, victim: 1),
    ])
    func victimIsTheOldestNotBeingAnswered(_ test: Case) {
        #expect(MonitorConnections.victim(among: test.evictable, cap: test.cap) == test.victim)
    }

    @Test func theCapClosesTheOldestIdleConnectionAndSparesThoseBeingAnswered() throws {
        let limits = MonitorConnectionLimits(requestTimeout: .seconds(10), idleTimeout: .seconds(60), maxConnections: 2)
        let connections = MonitorConnections(cap: limits.maxConnections)
        // Handlers outside any channel: their state moves, nothing is written or scheduled.
        let first = MonitorConnectionHandler(limits: limits, connections: connections)
        let second = MonitorConnectionHandler(limits: limits, connections: connections)
        #expect(connections.opened(first) == nil)
        #expect(connections.opened(second) == nil)
        #expect(connections.count == 2)

        first.answering()
        let third = MonitorConnectionHandler(limits: limits, connections: connections)
        let victim = try #require(connections.opened(third))
        #expect(victim === second)
        #expect(connections.count == 2)
        // Counted out already: its close, when it comes, changes nothing.
        connections.closed(second)
        #expect(connections.count == 2)

        third.answering()
        let fourth = MonitorConnectionHandler(limits: limits, connections: connections)
        let refused = try #require(connections.opened(fourth))
        #expect(refused === fourth)
        #expect(connections.count == 2)

        // Once answered, the oldest is idle and goes first again.
        first.answered(thenClose: false)
        let fifth = MonitorConnectionHandler(limits: limits, connections: connections)
        let next = try #require(connections.opened(fifth))
        #expect(next === first)
        connections.closed(third)
        #expect(connections.count == 1)
    }
}
