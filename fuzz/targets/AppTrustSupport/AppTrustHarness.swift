// The checks the app trust file targets (nsc, info-plist) share: a file either reads, and then
// answers a policy for any host without trapping, or gives one error located in it (line and
// column within the file, a message in printable text); the same bytes always give the same result.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RunnerAppTrust

enum AppTrustHarness {
    /// `FUZZ_PRINT=1 .build-fuzz/bin/TARGET FILE` shows what a read gave, for triage.
    static let printResults = getenv("FUZZ_PRINT") != nil

    /// Hosts every policy is asked for: names, subdomains, case and dots, addresses of both families.
    static let hosts = [
        "api.example.com", "WWW.Example.COM.", "a.b.c.example.com", "example.com", "localhost", "printer", "printer.local",
        "203.0.113.7", "[2001:db8::5]", "2001:db8::5", "127.0.0.1", "fe80::1", "", ".", "..", "*.example.com",
    ]

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Say which invariant broke, then abort so libFuzzer keeps the input.
    static func finding(_ message: String) -> Never {
        let line = Array("app trust fuzz target: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }

    static func show(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// An error must be in the file read, at a line it has (or 1), with a printable message.
    static func check(_ error: AppTrustFileError, path: String, data: Data, binary: Bool) {
        guard error.path == path else { finding("error for path '\(error.path)', not '\(path)'") }
        let lineCount = max(1, data.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        guard error.line >= 1, error.line <= lineCount else { finding("line \(error.line) outside 1...\(lineCount): \(error)") }
        guard error.column >= 1 else { finding("column \(error.column): \(error)") }
        if binary, error.line != 1 { finding("a binary plist's error not at line 1: \(error)") }
        guard !error.message.isEmpty else { finding("empty message at \(error.line):\(error.column)") }
        let text = error.rendered
        guard !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) else {
            finding("a control character in the error's text: \(text.debugDescription)")
        }
    }

    /// Every policy of `policies` for every host, checked for what the JSON promises.
    static func checkPolicies(_ policy: (String) -> [AppTrustPolicy]) {
        for host in hosts {
            for answer in policy(host) {
                if answer.pinsEnforced != (answer.whyNotEnforced == nil) {
                    finding("\(host): pinsEnforced \(answer.pinsEnforced) with whyNotEnforced \(String(describing: answer.whyNotEnforced))")
                }
                if answer.pinsEnforced, answer.pins.isEmpty, answer.sha1Pins.isEmpty { finding("\(host): pins enforced, none declared") }
                if let tls = answer.tlsMinimum, !["1.0", "1.1", "1.2", "1.3"].contains(tls) { finding("\(host): tlsMinimum \(tls)") }
                _ = answer.check(chain: [AppTrustChainCertificate(spkiSHA256: "QUFB", isLeaf: true)])
            }
        }
    }
}

/// LeakSanitizer's suppressions for these targets: swift-corelibs-foundation leaks the error of
/// every file it refuses, XMLParser the CFString of each libxml2 error it turns into an NSError
/// (`_CFErrorCreateFromXMLInterface`), PropertyListSerialization its CFError
/// (`CFPropertyListCreateWithData`): a few dozen bytes per malformed file, Foundation's, not RunnerAppTrust's.
@_cdecl("__lsan_default_suppressions")
public func appTrustLeakSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(leakSuppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}

private let leakSuppressions: StaticString = "leak:_CFErrorCreateFromXMLInterface\nleak:CFPropertyListCreateWithData\n"
