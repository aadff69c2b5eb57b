import Foundation

extension HARCapture {
    /// Reads a HAR capture (1.2 or 1.3, as Chrome, Firefox, Safari, Charles, mitmproxy, Proxyman
    /// and Insomnia write it); `path` names the file in errors.
    public static func read(_ data: Data, path: String) throws(HARReadError) -> HARCapture {
        let root = try rootObject(data, path: path)
        guard let log = try root.object("log") else { throw HARReadError(path: path, message: "no log object: not a HAR capture") }
        guard let rawEntries = log.value("entries") as? [Any] else {
            throw HARReadError(path: path, message: log.value("entries") == nil ? "no log.entries" : "log.entries is not a list")
        }
        let creator: String?
        switch log.value("creator") {
        case let name as String: creator = name
        case let fields as [String: Any]: creator = fields["name"] as? String
        default: creator = nil
        }
        var entries: [HAREntry] = []
        entries.reserveCapacity(rawEntries.count)
        for (index, raw) in rawEntries.enumerated() {
            guard let fields = raw as? [String: Any] else {
                throw HARReadError(path: path, entryIndex: index, message: "not an object")
            }
            entries.append(try HAREntry.read(HARObject(fields, place: "", path: path, entryIndex: index), index: index))
        }
        return HARCapture(version: log.value("version") as? String, creator: creator, entries: entries)
    }

    private static func rootObject(_ data: Data, path: String) throws(HARReadError) -> HARObject {
        // mitmproxy's tests carry a UTF-8 byte-order mark, which JSONSerialization refuses.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let json = data.starts(with: bom) ? data.dropFirst(bom.count) : data[...]
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw HARReadError(path: path, message: "not JSON: not a HAR capture")
        }
        guard let fields = parsed as? [String: Any] else {
            throw HARReadError(path: path, message: "the top level is not an object: not a HAR capture")
        }
        return HARObject(fields, place: "", path: path, entryIndex: nil)
    }
}
