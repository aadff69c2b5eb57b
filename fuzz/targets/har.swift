// libFuzzer target: arbitrary bytes as a HAR capture (RunnerCapture's `HARCapture.read`). A
// capture either reads, its entries numbered from 0 in order and each without a response marked
// failed, or gives one error for this file, its entry (when named) counted from 0, in printable
// text; reading twice gives the same result. A capture that reads is drafted into a plan as
// `runner init --har` does (`CaptureDrafter`, `DraftCheck.settle`): the plan passes the plan
// loader's check (`runner check --no-env`) once the scenarios it refuses are left out, never
// failing outside them, and no secret value it named (of 12 characters or more, so that a
// coincidence is not taken for a leak) is in its text.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RunnerCapture
import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHARCapture(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let path = "capture.har"
    let first = read(data, path: path)
    let second = read(data, path: path)
    guard second == first else { finding("two reads differ: \(first) and \(second)") }
    switch first {
    case .success(let capture):
        if printResults { show("read: \(capture.entries.count) entries") }
        for (position, entry) in capture.entries.enumerated() {
            guard entry.index == position else { finding("entry \(position) numbered \(entry.index)") }
            if entry.response == nil, !entry.failed { finding("entry \(position): no response, not failed") }
            if entry.response?.status == 0, !entry.failed { finding("entry \(position): status 0, not failed") }
            guard let scheme = URLComponents(string: entry.request.url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
                finding("entry \(position): url \(entry.request.url) accepted")
            }
            if let address = entry.serverIPAddress {
                if address.address.isEmpty || address.address.hasPrefix("[") { finding("entry \(position): address '\(address.address)'") }
                if let port = address.port, !(1...65_535).contains(port) { finding("entry \(position): port \(port)") }
            }
        }
        checkDraft(of: capture)
    case .failure(let error):
        if printResults { show(error.description) }
        guard error.path == path else { finding("error for path '\(error.path)', not '\(path)'") }
        if let index = error.entryIndex, index < 0 { finding("entry index \(index): \(error)") }
        guard !error.message.isEmpty else { finding("empty message: \(error)") }
        let text = error.description
        // A tab stays (as `withVisibleControls` leaves it, for every file's errors); no other control.
        guard !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            finding("a control character in the error's text: \(text.debugDescription)")
        }
    }
    return 0
}

/// The plan `runner init --har` would write passes the loader's check (a scenario it refuses
/// left out, as the command does; an error outside the scenarios is a finding) and holds no
/// secret it named.
private func checkDraft(of capture: HARCapture) {
    var draft = CaptureDrafter.draft([CaptureDrafter.Input(path: "capture.har", capture: capture)], options: CaptureDraftOptions())
    guard !draft.scenarios.isEmpty else { return }
    let yaml: String
    do throws(PlanErrors) {
        yaml = try DraftCheck.settle(&draft, settings: DraftPlanSettings(), path: planFile)
    } catch {
        finding("the drafted plan does not check outside its scenarios:\n\(error)\n\(draft.yaml(DraftPlanSettings()))")
    }
    if printResults { show(yaml + draft.notes.joined(separator: "\n")) }
    for secret in draft.secrets where secret.recordedValue.count >= 12 && yaml.contains(secret.recordedValue) {
        finding("secret \(secret.name) in clear in the plan:\n\(yaml)")
    }
}

/// One file per fuzzing process for the drafted plan (the loader reads plans from files).
private let planFile = FileManager.default.temporaryDirectory.appendingPathComponent("har-fuzz-\(getpid()).yaml").path

/// `FUZZ_PRINT=1 .build-fuzz/bin/har FILE` shows what a read gave, for triage.
private let printResults = getenv("FUZZ_PRINT") != nil

private func read(_ data: Data, path: String) -> Result<HARCapture, HARReadError> {
    do throws(HARReadError) {
        return .success(try HARCapture.read(data, path: path))
    } catch {
        return .failure(error)
    }
}

/// Say which invariant broke, then abort so libFuzzer keeps the input.
private func finding(_ message: String) -> Never {
    let line = Array("har fuzz target: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}

private func show(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
