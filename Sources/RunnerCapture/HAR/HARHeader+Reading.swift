extension HARHeader {
    /// The `name`/`value` objects of `key`, in order; a header needs a name, a `null` value is empty.
    static func readList(_ owner: HARObject, _ key: String) throws(HARReadError) -> [HARHeader] {
        try owner.objects(key).map { (header) throws(HARReadError) in
            guard let name = try header.nonEmptyString("name") else { throw header.error("\(header.place) has no name") }
            return HARHeader(name: name, value: try header.string("value") ?? "")
        }
    }
}
