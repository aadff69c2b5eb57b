/// How notes and comments name the capture's entries: `entry 4`, or `shop.har entry 4` when
/// several captures were read.
struct EntryLabels {
    var files: [String]

    func label(_ request: CapturedRequest) -> String {
        files.count > 1 ? "\(files[request.file]) entry \(request.entry.index)" : "entry \(request.entry.index)"
    }

    func label(file: Int, index: Int) -> String {
        files.count > 1 ? "\(files[file]) entry \(index)" : "entry \(index)"
    }

    /// `entries 0, 1, 9` (or one entry).
    func list(_ requests: [CapturedRequest]) -> String {
        guard requests.count > 1 else { return requests.first.map(label) ?? "" }
        if files.count > 1 { return requests.map(label).joined(separator: ", ") }
        return "entries " + requests.map { String($0.entry.index) }.joined(separator: ", ")
    }

    /// `entries 6 → 7 → 8`.
    func chain(_ requests: [CapturedRequest]) -> String {
        if files.count > 1 { return requests.map(label).joined(separator: " → ") }
        return "entries " + requests.map { String($0.entry.index) }.joined(separator: " → ")
    }
}
