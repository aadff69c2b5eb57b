// libFuzzer target: arbitrary bytes as a plan file, through `PlanLoader.load` as the CLI calls it.
//
// The bytes are written to `plans/plan.yaml` in a scratch directory that also holds the
// files seeds refer to (`payloads/body.bin`, `certs/ca.pem`, a directory `dir`), so the
// decoder's file checks take both sides. The environment and `--var`s are fixed. Besides
// crashes, hangs and leaks, a finding is an error list that breaks what plan-format.md
// promises: never empty, every error located in this file (line, column >= 1) with a message,
// and a `${secret:…}` value never shown; or a plan read in pieces (the path large plans take
// on several cores) that differs from the plan read whole, in any field or error; an error whose
// token (for --format) ends before it starts, or whose GitHub workflow command is not one line.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import RunnerPlan

/// The scratch directory and the fixed inputs of every run.
struct PlanFuzzWorkspace: Sendable {
    /// Distinctive, so finding it in an error means a secret leaked (see `checkErrors`).
    static let secret = "Zq7xSecretValueKw3"
    static let environment = [
        "API_TOKEN": secret, "HOME": "/home/fuzz", "REGION": "cn-north", "EMPTY": "", "PORT": "8443",
    ]
    static let variables = ["http_port": "18080", "https_port": "18443"]

    let root: String
    let planPath: String

    init() {
        // tmpfs when there is one: ext4 flushes a truncated file on close, which costs 10x the parse.
        let base: String
        if let scratch = getenv("FUZZ_SCRATCH") {
            base = String(cString: scratch)
        } else if access("/dev/shm", W_OK) == 0 {
            base = "/dev/shm"
        } else {
            base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        }
        var template = Array("\(base)/runner-fuzz-plan-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let created else {
            Self.fail("cannot create a scratch directory under \(base)")
        }
        root = created
        planPath = created + "/plans/plan.yaml"
        for directory in ["plans", "plans/payloads", "plans/certs", "plans/dir"] {
            mkdir(root + "/" + directory, 0o700)
        }
        Self.store(Array("payload\n".utf8), at: root + "/plans/payloads/body.bin")
        Self.store(Array("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8), at: root + "/plans/certs/ca.pem")
    }

    /// Replaces the file's contents with `bytes`.
    static func store(_ bytes: UnsafeRawBufferPointer, at path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fail("cannot write \(path)") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { fail("cannot write \(path)") }
            offset += written
        }
    }

    static func store(_ bytes: [UInt8], at path: String) {
        bytes.withUnsafeBytes { store($0, at: path) }
    }

    /// Removes what `init` made (the plan file is rewritten by every run).
    func remove() {
        for file in ["plans/plan.yaml", "plans/payloads/body.bin", "plans/certs/ca.pem"] {
            unlink(root + "/" + file)
        }
        for directory in ["plans/payloads", "plans/certs", "plans/dir", "plans", ""] {
            rmdir(root + "/" + directory)
        }
    }

    /// The scratch directory could not be set up: say why and stop.
    static func fail(_ message: String) -> Never {
        let line = Array("plan fuzz target: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }
}

let workspace = PlanFuzzWorkspace()

/// A broken invariant: say which, then abort so libFuzzer keeps the input.
func finding(_ message: String) -> Never {
    // libFuzzer's -minimize_crash runs the target once per attempt: leave nothing behind.
    workspace.remove()
    PlanFuzzWorkspace.fail(message)
}

/// `FUZZ_PRINT=1 .build-fuzz/bin/plan FILE` shows what a load gave, for triage.
let printResults = getenv("FUZZ_PRINT") != nil

func show(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = workspace.root
    atexit { workspace.remove() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    PlanFuzzWorkspace.store(input, at: workspace.planPath)
    comparePieces()
    do {
        let plan = try PlanLoader.load(
            path: workspace.planPath, variables: PlanFuzzWorkspace.variables,
            environment: PlanFuzzWorkspace.environment)
        guard plan.path == workspace.planPath else {
            finding("plan.path is '\(plan.path)', not the path loaded")
        }
        if printResults { show("plan '\(plan.name)': \(plan.scenarios.count) scenario(s), \(plan.domainMaps.count) map(s)") }
    } catch {
        if printResults { show(error.description) }
        checkErrors(error, input: input)
    }
    return 0
}

/// The plan read in three pieces must be the plan read whole: the same plan, or the same errors.
func comparePieces() {
    func load(_ parallelism: PlanParallelism) -> Result<Plan, PlanErrors> {
        do throws(PlanErrors) {
            return .success(try PlanLoader.load(
                path: workspace.planPath, variables: PlanFuzzWorkspace.variables,
                environment: PlanFuzzWorkspace.environment, parallelism: parallelism))
        } catch {
            return .failure(error)
        }
    }
    switch (load(.oneCore), load(.pieces(3))) {
    case (.success(let whole), .success(let pieces)):
        guard whole == pieces else { finding("read in pieces, the plan differs:\n\(whole)\nvs\n\(pieces)") }
    case (.failure(let whole), .failure(let pieces)):
        guard whole.description == pieces.description else {
            finding("read in pieces, the errors differ:\n\(whole.description)\nvs\n\(pieces.description)")
        }
    case (.success, .failure(let errors)):
        finding("read in pieces, a valid plan fails:\n\(errors.description)")
    case (.failure(let errors), .success):
        finding("read in pieces, an invalid plan loads (whole: \(errors.description))")
    }
}

/// What every failed load must look like, rendered the way the CLI prints it.
func checkErrors(_ failure: PlanErrors, input: UnsafeRawBufferPointer) {
    let text = failure.description
    guard !failure.errors.isEmpty, !text.isEmpty else { finding("a failed load with no error") }
    for error in failure.errors {
        guard !error.message.isEmpty else { finding("an error without a message: \(error.rendered)") }
        if let location = error.location {
            guard location.file == workspace.planPath, location.line >= 1, location.column >= 1 else {
                finding("an error located outside the plan: \(error.rendered)")
            }
            // Where its token ends (`--format`): at or after where it starts.
            if let end = error.end, end.line < location.line || (end.line == location.line && end.column < location.column) {
                finding("an error ending at \(end.line):\(end.column), before it starts: \(error.rendered)")
            }
        }
        // A GitHub workflow command is one line, whatever the plan quotes back.
        let command = PlanErrorFormat.githubCommand(PlanFinding(plan: workspace.planPath, error: error))
        if command.utf8.contains(UInt8(ascii: "\n")) || command.utf8.contains(UInt8(ascii: "\r")) {
            finding("a workflow command over more than one line: \(command)")
        }
    }
    // `${env:API_TOKEN}` shows the value by design, and the input may spell it out itself.
    let bytes = Array(input)
    let secret = Array(PlanFuzzWorkspace.secret.utf8)
    if contains(Array(text.utf8), secret), !contains(bytes, secret), !contains(bytes, Array("env:".utf8)) {
        finding("a secret shown in an error:\n\(text)")
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
    }
    return false
}
