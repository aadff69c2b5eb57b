import Foundation
import PlanFixtures
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Runs xmllint against the repository's JUnit schema (`schemas/junit-10.xsd`).
enum SchemaCheck {
    struct Outcome {
        var status: Int32
        var messages: String
    }

    /// Writes `xml` to a temporary file and validates it (`xmllint --noout --schema`).
    static func validate(_ xml: String) throws -> Outcome {
        let schema = Repository.junitSchema.path
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("junit-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try xmllint(["--noout", "--schema", schema, file.path])
    }

    /// Well-formedness only (`xmllint --noout`).
    static func wellFormed(_ xml: String) throws -> Outcome {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("wf-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try xmllint(["--noout", file.path])
    }

    private static func xmllint(_ arguments: [String]) throws -> Outcome {
        let output = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["xmllint"] + arguments, deadline: .seconds(60))
        return Outcome(status: output.status, messages: String(decoding: output.stdout + output.stderr, as: UTF8.self))
    }
}

/// A tiny DOM read back with Foundation's XMLParser, to compare parsed values with inputs.
final class ParsedElement {
    let name: String
    let attributes: [String: String]
    var children: [ParsedElement] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func all(_ name: String) -> [ParsedElement] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.all(name) }
    }

    func first(_ name: String) -> ParsedElement? { all(name).first }

    static func parse(_ xml: String) throws -> ParsedElement {
        let builder = Builder()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = builder
        let ok = parser.parse()
        let error = parser.parserError.map { String(describing: $0) } ?? "unknown"
        try #require(ok, "XMLParser failed: \(error)")
        return try #require(builder.root)
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: ParsedElement?
        var stack: [ParsedElement] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = ParsedElement(name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
