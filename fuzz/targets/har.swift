// libFuzzer target: arbitrary bytes as a HAR capture (RunnerCapture's `HARCapture.read`). A
// capture either reads, its entries numbered from 0 in order and each without a response marked
// failed, or gives one error for this file, its entry (when named) counted from 0, in printable
// text; reading twice gives the same result.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RunnerCapture

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
