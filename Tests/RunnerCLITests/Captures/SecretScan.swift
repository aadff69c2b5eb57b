import Foundation
import RunnerResults

/// Every form a captured secret could leak in: each form the redactor masks
/// (`SecretForms.all`: percent-encoded as sent URLs are, base64 at every alignment, JSON-escaped
/// as the common encoders write it), and more: every byte percent-encoded, `+` for a space,
/// whole base64 (standard and URL-safe, padded or not).
enum SecretScan {
    static func forms(of secret: String) -> [String] {
        var forms = Set(SecretForms.all(of: secret))
        let bytes = Array(secret.utf8)
        for lowercase in [false, true] {
            for everyByte in [false, true] {
                var encoded = ""
                for byte in bytes {
                    let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "-._~".utf8.contains(byte)
                    if unreserved && !everyByte {
                        encoded.append(Character(UnicodeScalar(byte)))
                    } else {
                        encoded += String(format: lowercase ? "%%%02x" : "%%%02X", byte)
                    }
                }
                forms.insert(encoded)
            }
        }
        forms.insert(secret.replacingOccurrences(of: " ", with: "+"))
        let base64 = Data(secret.utf8).base64EncodedString()
        forms.insert(base64)
        forms.insert(base64.replacingOccurrences(of: "=", with: ""))
        forms.insert(base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        if let json = try? JSONSerialization.data(withJSONObject: [secret]), let text = String(data: json, encoding: .utf8) {
            forms.insert(String(text.dropFirst(2).dropLast(2)))
        }
        return forms.sorted()
    }

    /// The forms of `secrets` found in `text`, as `SECRET in FORM`; empty when none is there.
    static func leaks(of secrets: [String], in text: String, place: String) -> [String] {
        secrets.flatMap { secret in
            forms(of: secret).filter { text.contains($0) }.map { "\(place): '\(secret)' as '\($0)'" }
        }
    }

    /// Every file under `folder` (the plan and its bodies), read as bytes and decoded lossily.
    static func leaks(of secrets: [String], inFilesUnder folder: URL) -> [String] {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return ["cannot list \(folder.path)"] }
        var found: [String] = []
        for case let file as URL in files {
            guard let data = try? Data(contentsOf: file), !data.isEmpty else { continue }
            // The capture itself is in the folder too: it is the source, not an output.
            guard file.pathExtension != "har" else { continue }
            found += leaks(of: secrets, in: String(decoding: data, as: UTF8.self), place: file.lastPathComponent)
            found += secrets.filter { data.range(of: Data($0.utf8)) != nil }.map { "\(file.lastPathComponent): '\($0)' in its bytes" }
        }
        return found
    }
}
