import RunnerLab

/// One lab, started on first use and never stopped, for the tests that look only at answers (not at
/// connection counts).
///
/// Parametrized cases run in parallel; a lab apiece would keep hundreds of sockets open, and a test process
/// with over ~1300 descriptors crashes now and then inside Foundation's `Process.run()`, which reads
/// `/proc/self/fd` past its buffer (swift-corelibs-foundation#5472, Swift 6.3.1).
enum StatelessLab {
    private static let started = Task { try await Lab.start() }

    static func get() async throws -> Lab { try await started.value }
}
