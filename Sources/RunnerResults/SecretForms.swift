import Foundation
import RunnerVocabulary

/// Every form a secret can take in what the runner sends and gets back, for the `Redactor` to
/// mask: as it is; percent-encoded as `PercentEncoding` — the encoder every sent URL is built
/// with — writes it, in either case of hex; base64 at each of the three alignments it can have
/// in encoded bytes (a Basic `Authorization` header); and escaped in a JSON string, as servers
/// that echo it write it (Foundation and most encoders: `\"` and `\\`; Python's ASCII-only
/// `\u00e4`; Go's HTML-safe `\u003c`; PHP's `\/`).
package enum SecretForms {
    /// The forms of `secret`, each once, the secret itself first; none for an empty secret.
    package static func all(of secret: String) -> [String] {
        guard !secret.isEmpty else { return [] }
        var forms = [secret]
        func add(_ form: String) {
            if !form.isEmpty, !forms.contains(form) { forms.append(form) }
        }
        PercentEncoding.forms(of: secret).forEach(add)
        base64(of: secret).filter { $0.utf8.count >= 8 }.forEach(add)
        json(of: secret).forEach(add)
        return forms
    }

    /// The base64 characters that depend on the secret alone, for each of the three offsets
    /// (modulo 3 bytes) at which it can start inside encoded data: `Basic base64(user:secret)`
    /// puts it at offset 5, so 2. Characters that share bits with the bytes before or after it
    /// are left out, so the form matches whatever surrounds the secret.
    static func base64(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        return (0..<3).map { offset in
            // The secret after `offset` zero bytes, encoded once as one buffer.
            var shifted = Data(count: offset + bytes.count)
            shifted.replaceSubrange(offset..<shifted.count, with: bytes)
            let encoded = Array(shifted.base64EncodedString().utf8)
            let total = offset + bytes.count
            // Whole groups give 4 characters each; a last group of 1 byte gives 1 pure
            // character, of 2 bytes 2 (the next shares bits with what follows).
            let pureEnd = total / 3 * 4 + [0, 1, 2][total % 3]
            // The first group's characters that hold bits of the bytes before the secret.
            let mixedStart = [0, 2, 3][offset]
            guard pureEnd > mixedStart else { return "" }
            return String(decoding: encoded[mixedStart..<pureEnd], as: UTF8.self)
        }
    }

    /// How a JSON encoder may escape a character of a string.
    private struct JSONEscaping {
        /// Non-ASCII as `\uXXXX` (UTF-16, surrogate pairs above the BMP).
        var asciiOnly = false
        /// `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026`.
        var htmlSafe = false
        /// `/` as `\/`.
        var slash = false
        var uppercaseHex = false
    }

    /// `secret` inside a JSON string, escaped as the common encoders do; only those that differ.
    static func json(of secret: String) -> [String] {
        // Only the encoders whose escapes the secret meets are tried: an escaping that finds
        // nothing of its own writes what another already wrote (most tokens meet none at all,
        // and a flow may capture thousands of them).
        let met = EscapesMet(secret)
        guard met.any else { return [] }
        var escapings = [JSONEscaping()]
        if met.slash { escapings.append(JSONEscaping(slash: true)) }
        if met.nonASCII || met.control {
            escapings.append(JSONEscaping(asciiOnly: true))
            escapings.append(JSONEscaping(asciiOnly: true, uppercaseHex: true))
        }
        if met.html {
            escapings.append(JSONEscaping(htmlSafe: true))
            if met.nonASCII { escapings.append(JSONEscaping(asciiOnly: true, htmlSafe: true)) }
        }
        var forms: [String] = []
        for escaping in escapings {
            let form = json(secret, escaping)
            if form != secret, !forms.contains(form) { forms.append(form) }
        }
        return forms
    }

    /// Which of the encoders' escapes a text holds, read in one pass over its bytes.
    private struct EscapesMet {
        /// `"`, `\\` and the controls every encoder escapes.
        var always = false
        /// Controls other than `\n`, `\r` and `\t`, written `\uXXXX` (the hex's case differs).
        var control = false
        var slash = false
        var html = false
        /// Anything above `~` (DEL and every non-ASCII scalar): what ASCII-only encoders escape.
        var nonASCII = false

        init(_ text: String) {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): always = true
                case 0..<0x20: always = true; control = true
                case UInt8(ascii: "/"): slash = true
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): html = true
                case 0x7F...: nonASCII = true
                default: break
                }
            }
        }

        var any: Bool { always || slash || html || nonASCII }
    }

    private static func json(_ text: String, _ escaping: JSONEscaping) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "/" where escaping.slash: escaped += "\\/"
            case "<", ">", "&":
                if escaping.htmlSafe { escaped += unicodeEscapes(scalar, escaping) } else { escaped.unicodeScalars.append(scalar) }
            default:
                if scalar.value < 0x20 || (escaping.asciiOnly && scalar.value > 0x7E) {
                    escaped += unicodeEscapes(scalar, escaping)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// `\uXXXX` for each UTF-16 unit of `scalar`.
    private static func unicodeEscapes(_ scalar: Unicode.Scalar, _ escaping: JSONEscaping) -> String {
        String(scalar).utf16.map { unit in
            let hex = String(unit, radix: 16, uppercase: escaping.uppercaseHex)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }
}
