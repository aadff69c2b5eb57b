import Foundation
import RunnerPlan

/// A value an answer of the capture carried, which a later request may send again.
struct ResponseValue {
    enum Source: Equatable {
        case json(path: String)
        case header(String)
        /// A `Set-Cookie`: the cookie jar carries it to the scenarios `after` this one.
        case cookie(name: String)
    }

    var value: String
    var source: Source
    /// The field's own name (the JSON key, the header), for the capture's name and whether it is a secret.
    var fieldName: String
    /// The scenario (by index in the draft) whose answer carried it.
    var producer: Int

    /// The shortest value worth following: shorter ones recur by chance.
    static let minimumLength = 8

    /// Response headers whose values are the server's bookkeeping, never sent back by an app.
    private static let ignoredHeaders: Set<String> = [
        "date", "content-type", "content-length", "server", "vary", "cache-control", "expires", "last-modified",
        "connection", "via", "alt-svc", "age", "accept-ranges", "content-encoding", "transfer-encoding", "keep-alive",
        "strict-transport-security", "content-security-policy", "access-control-allow-origin",
        "access-control-allow-headers", "access-control-allow-methods", "set-cookie",
    ]

    /// The values of one scenario's answers: the final answer's JSON scalars and headers, and
    /// every hop's cookies.
    static func values(of final: HARResponse?, hops: [HARResponse], producer: Int) -> [ResponseValue] {
        var values: [ResponseValue] = []
        for hop in hops {
            for header in hop.regularHeaders where header.name.lowercased() == "set-cookie" {
                guard let pair = header.value.split(separator: ";", maxSplits: 1).first,
                    let equals = pair.firstIndex(of: "=")
                else { continue }
                let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
                let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                guard value.count >= minimumLength else { continue }
                values.append(ResponseValue(value: value, source: .cookie(name: name), fieldName: name, producer: producer))
            }
        }
        guard let final else { return values }
        for header in final.regularHeaders where !ignoredHeaders.contains(header.name.lowercased()) {
            guard header.value.count >= minimumLength else { continue }
            values.append(ResponseValue(value: header.value, source: .header(header.name), fieldName: header.name, producer: producer))
        }
        if let bytes = final.content?.bytes, let document = JSONDocument(parsing: bytes) {
            walk(document.root, path: "$", field: "", depth: 0, producer: producer, into: &values)
        }
        return values
    }

    /// Strings only: a number is written back as the plan reads it, which need not be as the app did.
    private static func walk(_ value: JSONValue, path: String, field: String, depth: Int, producer: Int, into values: inout [ResponseValue]) {
        guard depth <= 8 else { return }
        switch value {
        case .object(let members):
            for key in members.keys.sorted() {
                guard let member = JSONKeyPath.member(key), let memberValue = members[key] else { continue }
                walk(memberValue, path: path + member, field: key, depth: depth + 1, producer: producer, into: &values)
            }
        case .array(let items):
            for (index, item) in items.prefix(50).enumerated() {
                walk(item, path: "\(path)[\(index)]", field: field, depth: depth + 1, producer: producer, into: &values)
            }
        case .string(let text):
            guard text.count >= minimumLength, depth > 0 else { return }
            values.append(ResponseValue(value: text, source: .json(path: path), fieldName: field, producer: producer))
        case .null, .bool, .number:
            return
        }
    }
}

/// JSONPath members as the plan's `expect.body.json` reads them.
enum JSONKeyPath {
    /// `.name` for a plain name, `['na me']` for another; nil for a key the path syntax cannot
    /// hold (a quote or a backslash in it).
    static func member(_ key: String) -> String? {
        guard !key.isEmpty else { return nil }
        let isPlain = key.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } ?? false
            && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        if isPlain { return ".\(key)" }
        guard !key.contains("'"), !key.contains("\\"), !key.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } ?? false }) else { return nil }
        return "['\(key)']"
    }
}
