/// Where positions of a parsed document stand in its tree, as key paths
/// (`scenarios[2].request.url`, `domains.shipped.static["api.example.com"]`): how a plan error is
/// named to tools that follow a finding from one revision of a plan to the next, whose lines move.
enum KeyPaths {
    /// The path of the deepest node that starts at each of `marks` (a block mapping starts where
    /// its first key does: the key is named). Marks with no node are absent.
    static func find(_ marks: Set<YAMLMark>, from root: YAMLNode) -> [YAMLMark: String] {
        guard !marks.isEmpty else { return [:] }
        var found: [YAMLMark: (depth: Int, path: String)] = [:]
        func visit(_ mark: YAMLMark, _ path: String, depth: Int) {
            guard marks.contains(mark), (found[mark]?.depth ?? -1) < depth else { return }
            found[mark] = (depth, path)
        }
        // Depth first with a stack (plans nest up to `YAMLParser.maximumDepth`); a collection an
        // alias repeats is walked once, where it is written (its children share their place).
        var stack: [(node: YAMLNode, path: String, depth: Int)] = [(root, "", 0)]
        var walked = Set<Int>()
        while let (node, path, depth) = stack.popLast() {
            visit(node.mark, path, depth: depth)
            switch node.content {
            case .scalar:
                continue
            case .sequence(let items):
                // An empty one has no place of its own among the children: nothing to walk.
                guard !items.isEmpty, walked.insert(items.start).inserted else { continue }
                for index in items.indices.reversed() {
                    stack.append((items[index], path + "[\(index)]", depth + 1))
                }
            case .mapping(let pairs):
                guard !pairs.isEmpty, walked.insert(pairs.start).inserted else { continue }
                for position in pairs.indices.reversed() {
                    let pair = pairs[position]
                    guard case .scalar(let key, _) = pair.key.content else { continue }
                    let keyPath = appending(key, to: path)
                    stack.append((pair.value, keyPath, depth + 2))
                    visit(pair.key.mark, keyPath, depth: depth + 1)
                }
            }
        }
        return found.mapValues(\.path)
    }

    /// `path.key`, or `path["key"]` for a key that is not a plain word (a host, a JSON path).
    static func appending(_ key: String, to path: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
        if plain { return path.isEmpty ? key : path + "." + key }
        var quoted = "\""
        for character in key.unicodeScalars {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted.unicodeScalars.append(character)
            }
        }
        return path + "[" + quoted + "\"]"
    }
}
