import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads XML bytes with Foundation's `XMLParser` into `XMLNode`s. External entities are never
/// resolved, and an entity reference gives no text (XMLParser on Linux does not substitute
/// them); a billion laughs is libxml2's entity loop error 89, found at once.
final class XMLTreeReader: NSObject, XMLParserDelegate {
    /// Why the bytes gave no tree, and where.
    struct Failure: Error, Sendable {
        var line: Int
        var column: Int
        var message: String
    }

    private let source: SourceLines
    private var stack: [XMLNode] = []
    private var root: XMLNode?
    /// Where libxml2 stood when it reported its first error (after parse() it stands at the end).
    private var firstErrorPosition: (line: Int, column: Int)?

    private init(source: SourceLines) {
        self.source = source
    }

    /// The document's root element, or why there is none.
    static func read(_ data: Data, source: SourceLines) -> Result<XMLNode, Failure> {
        if let hazard = XMLParserHazards.first(in: data) {
            return .failure(Failure(line: hazard.line, column: hazard.column, message: hazard.message))
        }
        let reader = XMLTreeReader(source: source)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = reader
        let parsed = parser.parse()
        // On Linux parse() can be true with an error set ("<a x=1/>"), and true with no error for
        // a document that ends inside its root ("<a>"): each counts as malformed.
        if let code = (parser.parserError as NSError?)?.code {
            let position = reader.firstErrorPosition ?? (parser.lineNumber, parser.columnNumber)
            return .failure(Failure(line: position.line, column: position.column, message: "malformed XML: \(Self.reason(code))"))
        }
        guard parsed, let root = reader.root else {
            let lastLine = max(1, source.lines.count)
            return .failure(Failure(
                line: lastLine, column: (source.line(lastLine)?.count ?? 0) + 1,
                message: "malformed XML: the document ends before its root element is closed"))
        }
        return .success(root)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let start = source.startOfTag(elementName, reportedLine: parser.lineNumber, reportedColumn: parser.columnNumber)
        stack.append(XMLNode(
            name: elementName, attributes: attributeDict, text: "", line: start.line, column: start.column, children: []))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstErrorPosition == nil { firstErrorPosition = (parser.lineNumber, parser.columnNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    /// libxml2's error numbers as XMLParser passes them on Linux, the usual ones in words.
    private static func reason(_ code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "an element not closed, or content after the root element"
        case 9: return "a character XML does not allow"
        case 26: return "an entity that is not declared"
        case 41: return "an attribute without a value"
        case 42: return "an attribute written twice"
        case 64: return "an XML declaration after the start"
        case 76: return "opening and ending tag mismatch"
        case 89: return "an entity reference loop (or an expansion past libxml2's limit)"
        default: return "not well-formed (libxml2 error \(code))"
        }
    }
}
