#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOConcurrencyHelpers

/// The lab's ranking port (`Lab.rankPort`): bare TCP listeners on `LabAddress.fastRankEdge` and
/// `LabAddress.slowRankEdge`, for the connects an SDK's ranking makes (a handshake, nothing
/// sent). Every connection is accepted and closed at once; nothing is read or written.
///
/// The fast edge completes a handshake at once. The slow one holds every first SYN back: a socket
/// filter on its listener drops every segment, so the kernel answers nothing and the client's kernel
/// sends the SYN again after its initial retransmission timeout (1 s on Linux, RFC 6298). The
/// listener's drop count (`SO_MEMINFO`) tells the lab a SYN was dropped; it lifts the filter 250 ms
/// before that SYN's resend is due and puts it back once the resend is in (or 500 ms after it was
/// due), so a connect takes the client's RTO, about 1 s, every time, also several at once. A connect
/// that starts in those 250 ms gets in at once (and may push another's resend to its next, 2 s
/// later). A kernel without `SO_MEMINFO` (before 4.12) never lifts it: every connect times out.
///
/// One thread watches both listeners (every 10 ms, 2 ms while the filter is lifted).
final class RankListeners: Sendable {
    let port: Int
    private let fast: Int32
    private let slow: Int32
    private let counts = NIOLockedValueBox(Counts())
    private let stopRequested = NIOLockedValueBox(false)
    private let stopped = DispatchSemaphore(value: 0)

    private struct Counts {
        var fast = 0
        var slow = 0
        var heldBack = 0
    }

    private init(port: Int, fast: Int32, slow: Int32) {
        self.port = port
        self.fast = fast
        self.slow = slow
    }

    /// Listens on both edges at `port` (0: a number free on both) and starts watching them.
    static func start(port: Int) throws -> RankListeners {
        guard (0...65535).contains(port) else {
            throw LabError.cannotListen(service: "rank", address: LabAddress.fastRankEdge, port: port, reason: "port out of range")
        }
        var lastReason = "none"
        for _ in 0..<(port == 0 ? ListenerSet.attempts : 1) {
            let fast = try bound(listen(LabAddress.fastRankEdge, port: port, holdingBack: false))
            let chosen = boundPort(fast)
            switch listen(LabAddress.slowRankEdge, port: chosen, holdingBack: true) {
            case .success(let slow):
                let listeners = RankListeners(port: chosen, fast: fast, slow: slow)
                listeners.run()
                return listeners
            case .failure(let failure):
                Glibc.close(fast)
                guard failure.addressInUse && port == 0 else { throw failure.labError }
                lastReason = failure.reason
            }
        }
        throw LabError.noCommonFreePort(service: "rank", attempts: ListenerSet.attempts, lastReason: lastReason)
    }

    /// Connections accepted on `ip`'s rank port since start; 0 for other addresses.
    func accepted(on ip: String) -> Int {
        switch ip {
        case LabAddress.fastRankEdge: counts.withLockedValue { $0.fast }
        case LabAddress.slowRankEdge: counts.withLockedValue { $0.slow }
        default: 0
        }
    }

    /// SYNs the slow edge has dropped since start (each a connect held back by the client's RTO).
    var heldBack: Int { counts.withLockedValue { $0.heldBack } }

    /// Stops watching and closes both listeners; calling it again does nothing.
    func close() {
        let first = stopRequested.withLockedValue { requested in
            defer { requested = true }
            return !requested
        }
        guard first else { return }
        stopped.wait()
        Glibc.close(fast)
        Glibc.close(slow)
    }

    // MARK: The watching thread

    private func run() {
        let thread = Thread { [self] in
            watch()
            stopped.signal()
        }
        thread.name = "lab rank port"
        thread.start()
    }

    /// How long before a dropped SYN's resend is due the filter comes off for it, and how long
    /// after it is due the lab stops waiting for it (the client gave up).
    private static let openAhead: Duration = .milliseconds(250)
    private static let giveUpAfter: Duration = .milliseconds(500)

    private func watch() {
        var baseline = Self.drops(slow)
        // When the resend of each SYN dropped (and not yet let in) is due, earliest first.
        var resends: [ContinuousClock.Instant] = []
        var open = false
        while !stopRequested.withLockedValue({ $0 }) {
            var descriptors = [pollfd(fd: fast, events: Int16(POLLIN), revents: 0), pollfd(fd: slow, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, open ? 2 : 10)
            let fastAccepted = Self.acceptAndClose(fast)
            let slowAccepted = Self.acceptAndClose(slow)
            let drops = Self.drops(slow)
            let dropped = drops.map { current in max(0, current - (baseline ?? current)) } ?? 0
            baseline = drops ?? baseline
            if fastAccepted + slowAccepted + dropped > 0 {
                counts.withLockedValue {
                    $0.fast += fastAccepted
                    $0.slow += slowAccepted
                    $0.heldBack += dropped
                }
            }
            let now = ContinuousClock.now
            // The ones let in were the earliest due (a connect that came in with them took a place).
            if open { resends.removeFirst(min(slowAccepted, resends.count)) }
            // Linux resends an unanswered SYN after its initial RTO, 1 s.
            resends += Array(repeating: now + .seconds(1), count: dropped)
            resends.removeAll { now > $0 + Self.giveUpAfter }
            let shouldOpen = resends.first.map { now >= $0 - Self.openAhead } ?? false
            if shouldOpen != open {
                Self.holdBack(slow, !shouldOpen)
                open = shouldOpen
            }
        }
    }

    // MARK: Sockets

    private struct Failure: Error, Sendable {
        let labError: LabError
        let reason: String
        let addressInUse: Bool
    }

    private static func bound(_ result: Result<Int32, Failure>) throws -> Int32 {
        switch result {
        case .success(let descriptor): descriptor
        case .failure(let failure): throw failure.labError
        }
    }

    /// A non-blocking listener on `address`:`port`; `holdingBack`: with the drop-everything filter
    /// attached before it listens, so no SYN gets past it unseen.
    private static func listen(_ address: String, port: Int, holdingBack: Bool) -> Result<Int32, Failure> {
        func failure(_ call: String, _ code: Int32) -> Failure {
            let reason =
                switch code {
                case EADDRINUSE: "address already in use (another lab or server holds this port)"
                case EADDRNOTAVAIL: "address not available on this machine"
                case EACCES: "permission denied (ports below 1024 need privileges)"
                default: "\(call): \(String(cString: strerror(code)))"
                }
            return Failure(
                labError: .cannotListen(service: "rank", address: address, port: port, reason: reason), reason: reason,
                addressInUse: code == EADDRINUSE)
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(failure("socket", errno)) }
        var on: Int32 = 1
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0, bound == 0,
            !holdingBack || holdBack(descriptor, true), Glibc.listen(descriptor, 64) == 0
        else {
            let code = errno
            Glibc.close(descriptor)
            return .failure(failure("listen", code))
        }
        return .success(descriptor)
    }

    private static func boundPort(_ descriptor: Int32) -> Int {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: socketAddress.sin_port))
    }

    /// Accepts every connection waiting on `descriptor` and closes it; how many there were.
    private static func acceptAndClose(_ descriptor: Int32) -> Int {
        var count = 0
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 {
                Glibc.close(connection)
                count += 1
                continue
            }
            // ECONNABORTED: one that was reset while it waited; there may be more behind it.
            if errno == ECONNABORTED || errno == EINTR { continue }
            return count
        }
    }

    /// The segments the kernel dropped at `descriptor` (`SK_MEMINFO_DROPS`), nil where the kernel
    /// does not tell.
    private static func drops(_ descriptor: Int32) -> Int? {
        var info = [UInt32](repeating: 0, count: 16)
        var length = socklen_t(info.count * MemoryLayout<UInt32>.size)
        let soMeminfo: Int32 = 55
        let skMeminfoDrops = 8
        guard getsockopt(descriptor, SOL_SOCKET, soMeminfo, &info, &length) == 0,
            Int(length) > skMeminfoDrops * MemoryLayout<UInt32>.size
        else { return nil }
        return Int(info[skMeminfoDrops])
    }

    /// Attaches (`true`) the classic BPF filter that drops every segment, or detaches it.
    @discardableResult
    private static func holdBack(_ descriptor: Int32, _ on: Bool) -> Bool {
        let soAttachFilter: Int32 = 26
        let soDetachFilter: Int32 = 27
        guard on else {
            var unused: Int32 = 0
            return setsockopt(descriptor, SOL_SOCKET, soDetachFilter, &unused, socklen_t(MemoryLayout<Int32>.size)) == 0
        }
        // One instruction, BPF_RET | BPF_K with k = 0: keep none of the segment. struct sock_filter
        // is {u16 code; u8 jt; u8 jf; u32 k}.
        var instruction: [UInt8] = [0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        return instruction.withUnsafeMutableBytes { filter in
            // struct sock_fprog: unsigned short len, then the pointer at its alignment.
            let pointerOffset = MemoryLayout<UnsafeMutableRawPointer>.alignment
            var program = [UInt8](repeating: 0, count: pointerOffset + MemoryLayout<UnsafeMutableRawPointer>.size)
            return program.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: UInt16(1), toByteOffset: 0, as: UInt16.self)
                bytes.storeBytes(of: filter.baseAddress!, toByteOffset: pointerOffset, as: UnsafeMutableRawPointer.self)
                return setsockopt(descriptor, SOL_SOCKET, soAttachFilter, bytes.baseAddress, socklen_t(bytes.count)) == 0
            }
        }
    }
}
