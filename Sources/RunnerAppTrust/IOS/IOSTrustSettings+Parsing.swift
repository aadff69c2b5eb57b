import Foundation

extension IOSTrustSettings {
    /// Reads an Info.plist, XML (PropertyListSerialization) or binary (PropertyListDecoder). A value iOS or
    /// TrustKit cannot use is an error at its key: the key's line and column in an XML plist,
    /// line 1 in a binary one; the message names the key path in both.
    public static func parse(_ data: Data, path: String) throws(AppTrustFileError) -> IOSTrustSettings {
        let source = SourceLines(data)
        let isBinary = data.starts(with: Array("bplist".utf8))
        var locator: PlistKeyLocator?
        var xmlRoot: XMLNode?
        if !isBinary {
            switch XMLTreeReader.read(data, source: source) {
            case .success(let root):
                xmlRoot = root
                locator = PlistKeyLocator(xml: root)
            case .failure(let failure):
                throw AppTrustFileError(
                    path: path, line: failure.line, column: failure.column, message: failure.message, sourceLine: source.line(failure.line))
            }
        }
        let top: Any
        let budget = PlistValueBudget()
        do {
            // A binary plist through PropertyListDecoder: PropertyListSerialization crashes on some (see PlistValue).
            if isBinary {
                let decoder = PropertyListDecoder()
                if let key = PlistValueBudget.key { decoder.userInfo[key] = budget }
                top = try decoder.decode(PlistValue.self, from: data).foundationValue
            } else {
                top = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            }
        } catch where budget.isSpent {
            throw AppTrustFileError(
                path: path, line: 1, column: 1,
                message: "a binary plist of more than \(PlistValueBudget.valueLimit) values or \(PlistValueBudget.depthLimit) levels (an object it refers to again counted each time)")
        } catch {
            let line = xmlRoot?.line ?? 1
            throw AppTrustFileError(
                path: path, line: line, column: xmlRoot?.column ?? 1,
                message: "not a property list Foundation can read (\(isBinary ? "binary" : "XML"))",
                sourceLine: xmlRoot == nil ? nil : source.line(line))
        }
        let reader = InfoPlistReader(path: path, source: source, locator: locator)
        return try reader.read(top)
    }
}
