import Foundation

/// Where each key of an XML property list is written: PropertyListSerialization gives values
/// without lines, so a second pass with XMLParser over the same bytes finds them. A key path
/// is the keys from the top dictionary down (an array's items by index, `"0"`…).
struct PlistKeyLocator: Sendable {
    struct Location: Sendable {
        var line: Int
        var column: Int
    }

    private var locations: [[String]: Location] = [:]

    /// Nil for a binary plist or bytes XMLParser cannot read.
    init?(xml root: XMLNode) {
        guard root.name == "plist", let top = root.children.first else { return nil }
        record(top, at: [])
    }

    /// The location of the key at `path` (of the item, for an array's), or of its nearest written ancestor.
    func location(of path: [String]) -> Location? {
        var path = path
        while !path.isEmpty {
            if let found = locations[path] { return found }
            path.removeLast()
        }
        return nil
    }

    private mutating func record(_ node: XMLNode, at path: [String]) {
        switch node.name {
        case "dict":
            var pendingKey: XMLNode?
            for child in node.children {
                if child.name == "key" {
                    pendingKey = child
                    continue
                }
                guard let key = pendingKey else { continue }
                pendingKey = nil
                let keyPath = path + [key.text]
                // A key written twice: PropertyListSerialization keeps the last one, and so does this.
                locations[keyPath] = Location(line: key.line, column: key.column)
                record(child, at: keyPath)
            }
        case "array":
            for (index, child) in node.children.enumerated() {
                let itemPath = path + [String(index)]
                locations[itemPath] = Location(line: child.line, column: child.column)
                record(child, at: itemPath)
            }
        default:
            return
        }
    }
}
