import Foundation
import PlanFixtures
import Testing

/// The tests' process runner: exit codes, signals, large output on both pipes, the deadline.
@Suite("Child processes for tests", .timeLimit(.minutes(1)))
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func exitStatusAndBothOutputs() throws {
        let output = try ChildProcess.run(Self.shell, ["-c", "echo out; echo err >&2; exit 3"])
        #expect(output.termination == .exited(3))
        #expect(String(decoding: output.stdout, as: UTF8.self) == "out\n")
        #expect(String(decoding: output.stderr, as: UTF8.self) == "err\n")
    }

    /// More than a pipe holds on both at once: neither blocks the child.
    @Test func largeOutputOnBothPipes() throws {
        let output = try ChildProcess.run(Self.shell, ["-c", "head -c 3000000 /dev/zero; head -c 2000000 /dev/zero >&2"])
        #expect(output.stdout.count == 3_000_000)
        #expect(output.stderr.count == 2_000_000)
    }

    @Test func aChildPastItsDeadlineIsKilledAndReported() throws {
        let started = ContinuousClock.now
        #expect(throws: ChildProcess.TimedOut.self) {
            try ChildProcess.run(Self.shell, ["-c", "echo started; exec sleep 30"], deadline: .milliseconds(300))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func aSignalOnAnEventEndsTheChild() throws {
        let output = try ChildProcess.run(
            Self.shell, ["-c", "echo ready; exec sleep 30"],
            signal: ChildProcess.Signal(SIGTERM, .whenStdoutContains("ready")), deadline: .seconds(20))
        #expect(output.termination == .signalled(SIGTERM))
    }

    /// Descriptors of the test process do not reach the child (the lab's sockets, say).
    @Test func theChildInheritsOnlyItsStandardDescriptors() throws {
        let file = try #require(fopen("/dev/null", "r"))
        defer { fclose(file) }
        let output = try ChildProcess.run(Self.shell, ["-c", "ls /proc/self/fd"])
        let descriptors = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n")
        // 0, 1, 2, and the one `ls` opens to read the directory.
        #expect(descriptors.count <= 4, "\(descriptors)")
    }
}
