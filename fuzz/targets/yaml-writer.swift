// libFuzzer target: arbitrary bytes (as UTF-8, invalid sequences replaced) written by RunnerPlan's
// `YAMLWriter` as a key, as a string and a plain value, as block and flow items, and as a comment,
// then read back by the plan reader (libyaml): the document parses with no error and every
// scalar returns byte for byte, a `.string` as a string, a `.plain` written plain when it could be.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLWriter(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self) } ?? ""
    let items = [YAMLItem(.string(text), comments: [text]), YAMLItem(.plain(text)), YAMLItem(.integer(size))]
    let entries = [
        YAMLEntry(text, .string(text), comments: [text]),
        YAMLEntry(text + "\u{0}plain", .plain(text)),
        YAMLEntry(text + "\u{0}block", .sequence(items)),
        YAMLEntry(text + "\u{0}flow", .sequence(items.map { YAMLItem($0.value) }, style: .flow)),
        // The inner keys differ whatever the input (a fixed second key met an input equal to it:
        // a duplicate the harness made, not the writer).
        YAMLEntry(text + "\u{0}map", .mapping([YAMLEntry(text, .string(text)), YAMLEntry(text + "\u{0}p", .plain(text))], style: .flow)),
    ]
    let written = YAMLWriter.document(entries, comments: [text])
    if printResults { show(written) }
    let document: YAMLDocument
    do {
        document = try YAMLParser(source: SourceText(file: "written.yaml", bytes: Array(written.utf8))).parse()
    } catch {
        finding("the written document does not parse: \(error)\n\(written.debugDescription)")
    }
    guard document.errors.isEmpty, let root = document.root else {
        finding("read back with errors \(document.errors)\n\(written.debugDescription)")
    }
    check(.mapping(entries), root, written: written)
    return 0
}

private func check(_ value: YAMLValue, _ node: YAMLNode, written: String) {
    switch (value, node.content) {
    case (.string(let expected), .scalar(let text, let style)):
        guard Array(text.utf8) == Array(expected.utf8) else { finding("read \(text.debugDescription) for \(expected.debugDescription)") }
        if style == .plain, text.isEmpty || ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"].contains(text.lowercased())
            || text.unicodeScalars.first.map({ "0123456789+-.".unicodeScalars.contains($0) }) == true {
            finding("\(expected.debugDescription) written plain: not a string")
        }
    case (.plain(let expected), .scalar(let text, _)):
        guard Array(text.utf8) == Array(expected.utf8) else { finding("read \(text.debugDescription) for plain \(expected.debugDescription)") }
    case (.integer(let expected), .scalar(let text, let style)):
        guard text == String(expected), style == .plain else { finding("read \(text.debugDescription) for \(expected)") }
    case (.sequence(let items, _), .sequence(let nodes)):
        guard items.count == nodes.count else { finding("\(nodes.count) items for \(items.count)\n\(written.debugDescription)") }
        for (index, item) in items.enumerated() { check(item.value, nodes[index], written: written) }
    case (.mapping(let entries, _), .mapping(let pairs)):
        guard entries.count == pairs.count else { finding("\(pairs.count) entries for \(entries.count)\n\(written.debugDescription)") }
        for (index, entry) in entries.enumerated() {
            check(.string(entry.key), pairs[index].key, written: written)
            check(entry.value, pairs[index].value, written: written)
        }
    default:
        finding("read \(node.kindDescription) for \(value)\n\(written.debugDescription)")
    }
}

/// `FUZZ_PRINT=1 .build-fuzz/bin/yaml-writer FILE` shows the document written, for triage.
private let printResults = getenv("FUZZ_PRINT") != nil

/// Say which invariant broke, then abort so libFuzzer keeps the input.
private func finding(_ message: String) -> Never {
    let line = Array("yaml-writer fuzz target: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    abort()
}

private func show(_ text: String) {
    let line = Array(text.utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
