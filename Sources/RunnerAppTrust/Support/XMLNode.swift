/// One element of an XML trust file, with where it starts: what the readers walk in document
/// order, as the platforms' pull parsers do.
struct XMLNode: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    /// The character data directly inside the element (CDATA included), not its children's.
    var text: String
    var line: Int
    var column: Int
    var children: [XMLNode]

    /// The first child called `name`, if any.
    func child(_ name: String) -> XMLNode? { children.first { $0.name == name } }
}
