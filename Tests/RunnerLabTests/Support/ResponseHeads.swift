import Foundation

/// One response head as curl's `--dump-header` wrote it.
struct ResponseHead: CustomStringConvertible {
    /// "HTTP/1.1 302 Found" or "HTTP/2 302".
    let statusLine: String
    let status: Int
    /// Names lower-cased, in order, repeats kept.
    let headers: [(name: String, value: String)]

    var description: String { ([statusLine] + headers.map { "\($0.name): \($0.value)" }).joined(separator: "\n") }

    /// Every value of header `name` (any case), in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name == name.lowercased() }.map(\.value)
    }

    /// The one value of header `name`, `nil` when absent or repeated.
    func value(_ name: String) -> String? {
        let all = values(name)
        return all.count == 1 ? all[0] : nil
    }

    /// Every head in a dump, in order (interim 1xx heads and the heads of followed redirects included).
    static func all(in dump: String) -> [ResponseHead] {
        dump.components(separatedBy: "\r\n\r\n").compactMap { block in
            let lines = block.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/") else { return nil }
            let parts = statusLine.split(separator: " ")
            guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
            let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (
                    line[..<colon].lowercased(),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                )
            }
            return ResponseHead(statusLine: statusLine, status: status, headers: headers)
        }
    }
}

extension CommandResult {
    /// The heads curl dumped to stderr (`--dump-header /dev/stderr`).
    var heads: [ResponseHead] { ResponseHead.all(in: errorOutput) }
}
