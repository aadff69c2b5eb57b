/// `/json`: a small fixed document, for expectations on JSON paths.
struct JSONEndpoint: ImmediateEndpoint {
    static let document = JSONValue.object([
        ("user", .object([("id", .int(42)), ("name", .string("probe"))])),
        ("items", .array([.int(1), .int(2), .int(3)])),
    ])

    func response(to request: LabRequest) -> LabResponse { .json(Self.document) }
}
