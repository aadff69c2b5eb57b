/// A DNS message ldns could not read as a query, or a reply it could not write; says which and why.
struct DNSWireError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
