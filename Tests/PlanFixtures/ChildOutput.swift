import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a running child's output descriptors to their ends on threads of their own (so a full
/// pipe never blocks the child), keeping what was written, for tests that talk to long-running
/// servers (`runner serve`, unbound, Prometheus) while they run.
public final class ChildOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = Data()
    private let done = DispatchGroup()

    /// Starts reading each descriptor given (nil ones are skipped); each is closed at its end.
    public init(_ descriptors: Int32?...) {
        for descriptor in descriptors.compactMap({ $0 }) {
            done.enter()
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        lock.withLock { collected.append(contentsOf: buffer[0..<count]) }
                    } else if count < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                close(descriptor)
                done.leave()
            }.start()
        }
    }

    /// Everything read so far, as UTF-8.
    public func text() -> String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Waits, at most `deadline`, until every descriptor has reached its end.
    public func wait(deadline: Duration) {
        _ = done.wait(timeout: .now() + Double(deadline.components.seconds))
    }
}
