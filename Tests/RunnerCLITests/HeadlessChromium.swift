import Foundation
import PlanFixtures

/// Debian's Chromium, headless, as the tests drive it: a child process with a deadline (killed
/// when it outlives it) and a profile of its own (parallel tests do not share one), which
/// loads a page from a file and gives back its DOM once the page has loaded and its scripts
/// have run, or a screenshot of it.
///
/// It runs only on idle CPU (SCHED_IDLE, `chrt --idle`): a browser starting takes a few
/// seconds of both cores, and the tests running beside it wait on servers with timeouts of a
/// few seconds (with four browsers beside the suite, the shared lab's handshakes timed out in
/// most full runs). `nice` is not enough: Chromium sets its threads' nice values itself, to 0
/// and, run as root, to -8 for its compositor and I/O threads, above the lab's; so as root it
/// also loses CAP_SYS_NICE (`setpriv`), and no thread can leave the idle class.
enum HeadlessChromium {
    /// Chromium is missing: the test fails (it does not skip) and says how to get it.
    struct NotInstalled: Error, CustomStringConvertible {
        var description: String {
            "Chromium is not installed (no chromium or chromium-browser on PATH or in /usr/bin); the HTML report is "
                + "tested in a real browser. `make test` installs it (DEB_PACKAGES in the Makefile); by hand: "
                + "tools/install-packages.sh chromium"
        }
    }

    /// Chromium ran, but not to a clean end.
    struct Failed: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var stderr: String

        var description: String { "chromium \(arguments.joined(separator: " ")) exited \(status): \(stderr.suffix(2000))" }
    }

    /// The executable, found as a shell would (Debian names it `chromium`).
    static func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin"] {
            for name in ["chromium", "chromium-browser"] {
                let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        throw NotInstalled()
    }

    /// `page` as `file://…`, with `#fragment` when given.
    static func address(of page: URL, fragment: String? = nil) -> String {
        page.absoluteURL.absoluteString + (fragment.map { "#" + $0 } ?? "")
    }

    /// The DOM of `page` (opened at `fragment`) after it loaded and its scripts ran, serialized.
    static func renderedDOM(of page: URL, fragment: String? = nil) async throws -> String {
        let output = try await run(["--dump-dom", address(of: page, fragment: fragment)])
        return String(decoding: output.stdout, as: UTF8.self)
    }

    /// A PNG of `page`'s first `width` × `height` pixels.
    static func screenshot(of page: URL, fragment: String? = nil, to png: URL, width: Int, height: Int) async throws {
        _ = try await run([
            "--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png.path)",
            address(of: page, fragment: fragment),
        ])
    }

    /// `executable arguments` run in the idle scheduling class, without the capability to leave
    /// it when run as root; as it is when util-linux's tools are missing.
    private static func idlePriority(_ executable: URL, _ arguments: [String]) -> (URL, [String]) {
        let chrt = "/usr/bin/chrt"
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: chrt) else { return (executable, arguments) }
        let idle = ["--idle", "0", executable.path] + arguments
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
            return (URL(fileURLWithPath: chrt), idle)
        }
        return (URL(fileURLWithPath: setpriv), ["--bounding-set=-sys_nice", "--inh-caps=-sys_nice", chrt] + idle)
    }

    /// The deadline is generous: in the idle class, Chromium waits for the rest of a busy suite
    /// (35 s in parallel, longer on a loaded machine) before it gets a core; alone it takes ~2 s.
    private static func run(_ arguments: [String], deadline: Duration = .seconds(150)) async throws -> ChildProcess.Output {
        let executable = try executable()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
        let all = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--renderer-process-limit=1", "--user-data-dir=\(profile.path)",
        ] + arguments
        let (launcher, launch) = idlePriority(executable, all)
        let output = try await offPool { try ChildProcess.run(launcher, launch, deadline: deadline) }
        guard output.termination == .exited(0) else {
            throw Failed(arguments: all, status: output.status, stderr: String(decoding: output.stderr, as: UTF8.self))
        }
        return output
    }
}
