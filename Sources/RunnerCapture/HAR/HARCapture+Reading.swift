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
            // mitmproxy writes a body of a UTF-8 type whose bytes are not UTF-8 with Python's
            // surrogateescape, each bad byte a lone surrogate (`\udce9`), which JSONSerialization
            // refuses: read again with each as U+FFFD, as a UTF-8 decoder reads a bad byte.
            guard let repaired = replacingLoneSurrogates(json),
                let reparsed = try? JSONSerialization.jsonObject(with: repaired)
            else { throw HARReadError(path: path, message: "not JSON: not a HAR capture") }
            parsed = reparsed
        }
        guard let fields = parsed as? [String: Any] else {
            throw HARReadError(path: path, message: "the top level is not an object: not a HAR capture")
        }
        return HARObject(fields, place: "", path: path, entryIndex: nil)
    }

    /// `json` with every `\uXXXX` escape of a surrogate that is not half of a pair made `\ufffd`;
    /// nil when it has none (then something else made it fail). Other escapes (`\\` among them)
    /// are stepped over whole, so a backslash written as text never starts one.
    static func replacingLoneSurrogates(_ json: Data.SubSequence) -> Data? {
        let bytes = Array(json)
        func codeUnit(at index: Int) -> UInt16? {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                let text = String(bytes: bytes[(index + 2)..<(index + 6)], encoding: .ascii)
            else { return nil }
            return UInt16(text, radix: 16)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var replaced = false
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                output.append(bytes[index])
                index += 1
                continue
            }
            guard let unit = codeUnit(at: index) else {
                output.append(contentsOf: bytes[index...(index + 1)])
                index += 2
                continue
            }
            if (0xD800...0xDBFF).contains(unit), let low = codeUnit(at: index + 6), (0xDC00...0xDFFF).contains(low) {
                output.append(contentsOf: bytes[index..<(index + 12)])
                index += 12
            } else if (0xD800...0xDFFF).contains(unit) {
                output.append(contentsOf: Array("\\ufffd".utf8))
                replaced = true
                index += 6
            } else {
                output.append(contentsOf: bytes[index..<(index + 6)])
                index += 6
            }
        }
        return replaced ? Data(output) : nil
    }
}
