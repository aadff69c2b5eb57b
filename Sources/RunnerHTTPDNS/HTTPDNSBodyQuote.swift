import Foundation

/// Quotes the start of a body for error texts: safe to print, short, and says how long it was.
enum HTTPDNSBodyQuote {
    /// Bytes of the body shown before `…`.
    static let limit = 60

    /// `'<html><body>Bad gat…' (812 bytes)`: printable ASCII kept, everything else escaped.
    static func quote(_ body: Data) -> String {
        var text = ""
        for byte in body.prefix(limit) {
            text += escape(byte)
        }
        if body.count > limit { text += "…" }
        return "'\(text)' (\(body.count) byte\(body.count == 1 ? "" : "s"))"
    }

    /// Escapes one byte; bytes, not characters, so invalid UTF-8 and control codes show as they are.
    static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "\\'"
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        case 0x20...0x7E: return String(UnicodeScalar(byte))
        default:
            let hex = String(byte, radix: 16)
            return "\\x" + (hex.count == 1 ? "0" + hex : hex)
        }
    }

    /// A short piece of text (an address, a host) quoted for a reason, escaped the same way.
    static func quoteText(_ text: String, limit: Int = 40) -> String {
        "'\(escapeText(text, limit: limit))'"
    }

    /// `text` escaped byte by byte, cut after `limit` bytes with `…`.
    static func escapeText(_ text: String, limit: Int = 40) -> String {
        let bytes = Array(text.utf8)
        let escaped = bytes.prefix(limit).map(escape).joined()
        return bytes.count > limit ? escaped + "…" : escaped
    }
}
