import Foundation
import RunnerPlan

/// Alibaba Cloud EMAS `/v2/d` (the API the current SDKs call): `exp` is the expiry in Unix
/// seconds and `s` the lower-case hex HMAC-SHA256, under the hex-decoded secret, of the signed
/// parameters present and non-empty, sorted by name, written `k=v` (as sent, not URL-encoded)
/// and joined with `&`. Encrypting (`m` 1: AES-128-CBC, 2: AES-128-GCM) moves `dn`, `q`, `cip`,
/// `tags` and `sdns-*` into `enc`, hex of IV ‖ ciphertext of their JSON object; the answer's
/// `data` then comes as base64 of IV ‖ ciphertext.
enum AlibabaV2Sign {
    /// The parameters the signature covers (with every `sdns-*`).
    static let signedNames: Set<String> = ["id", "m", "dn", "cip", "q", "enc", "exp", "tags", "v"]
    /// The parameters an encrypted query carries inside `enc` (with every `sdns-*`).
    static let encryptedNames: Set<String> = ["dn", "q", "cip", "tags"]
    /// Bytes of IV: 16 for CBC, GCM's own 12.
    static func ivLength(_ encryption: HTTPDNSAuth.AlibabaV2Encryption) -> Int {
        switch encryption {
        case .none: 0
        case .aesCBC: 16
        case .aesGCM: 12
        }
    }

    /// `m`: how the query and answer travel.
    static func mode(_ encryption: HTTPDNSAuth.AlibabaV2Encryption) -> String {
        switch encryption {
        case .none: "0"
        case .aesCBC: "1"
        case .aesGCM: "2"
        }
    }

    /// What is signed: `k=v` of `parameters` the signature covers, non-empty, sorted by name.
    static func signedText(_ parameters: [(name: String, value: String)]) -> String {
        parameters.filter { (signedNames.contains($0.name) || $0.name.hasPrefix("sdns-")) && !$0.value.isEmpty }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "&")
    }

    /// `s` for a signed text under a hex secret.
    static func signature(_ text: String, secret: String) throws(HTTPDNSProblem) -> String {
        let key = try bytes(ofHex: secret, what: "secret")
        do throws(OpenSSLCrypto.Failure) {
            return Hex.lowercase(try OpenSSLCrypto.hmacSHA256(key: key, Array(text.utf8)))
        } catch {
            throw .crypto(error, scheme: .alibabaV2)
        }
    }

    /// `url` with `m`, `exp` and `s` set (and its names in `enc` when encrypting), valid until
    /// `now + validFor`.
    static func sign(
        _ url: String, secret: String, encryption: HTTPDNSAuth.AlibabaV2Encryption, now: Date, validFor: Duration,
        makeIV: (Int) throws(HTTPDNSProblem) -> [UInt8]
    ) throws(HTTPDNSProblem) -> String {
        var query = HTTPDNSQueryParameters(url: url)
        for required in ["id", "dn"] where try (query.value(required) ?? "").isEmpty {
            throw HTTPDNSProblem(.query, "alibaba-v2 signs the '\(required)' parameter, and the URL has none")
        }
        query.set("m", to: mode(encryption))
        query.set("exp", to: String(HTTPDNSAuthClock.expiryMilliseconds(now: now, validFor: validFor) / 1000))
        if let key = encryption.key {
            var hidden: [String: String] = [:]
            for name in query.names where encryptedNames.contains(name) || name.hasPrefix("sdns-") {
                if hidden[name] == nil, let value = try query.value(name), !value.isEmpty { hidden[name] = value }
                query.remove(name)
            }
            let plaintext: Data
            do {
                plaintext = try JSONSerialization.data(withJSONObject: hidden, options: [.sortedKeys, .withoutEscapingSlashes])
            } catch {
                throw HTTPDNSProblem(.crypto, "alibaba-v2: the query's names cannot be written as JSON")
            }
            let iv = try makeIV(ivLength(encryption))
            query.set("enc", to: Hex.lowercase(iv + (try seal(Array(plaintext), encryption: encryption, key: key, iv: iv))))
        }
        var parameters: [(name: String, value: String)] = []
        for name in query.names {
            parameters.append((name, try query.value(name) ?? ""))
        }
        query.set("s", to: try signature(signedText(parameters), secret: secret))
        return query.url
    }

    /// A `/v2/d` answer whose `data` is encrypted (mode 1 or 2) as the same envelope with `data`
    /// the JSON text it decrypts to (what mode 0 may send); any other body as it came.
    static func decryptAnswer(_ body: Data, encryption: HTTPDNSAuth.AlibabaV2Encryption) throws(HTTPDNSProblem) -> Data {
        guard let envelope = HTTPDNSJSON.object(body), HTTPDNSJSON.member(envelope, "code") as? String == "success",
            let data = HTTPDNSJSON.member(envelope, "data") as? String,
            let mode = AlibabaV2AnswerParser.mode(of: envelope), mode == "1" || mode == "2"
        else { return body }
        let sealed: HTTPDNSAuth.AlibabaV2Encryption
        switch (mode, encryption.key) {
        case (_, nil):
            throw HTTPDNSProblem(.answer, "alibaba-v2: the answer's data is encrypted (mode \(mode)) and the map's auth has no key")
        case ("1", let key?): sealed = .aesCBC(key: key)
        case (_, let key?): sealed = .aesGCM(key: key)
        }
        guard let bytes = Data(base64Encoded: data.trimmingCharacters(in: .whitespacesAndNewlines)).map(Array.init) else {
            throw HTTPDNSProblem(.answer, "alibaba-v2: the answer's data (mode \(mode)) is not base64")
        }
        let ivLength = ivLength(sealed)
        guard bytes.count > ivLength, let key = sealed.key else {
            throw HTTPDNSProblem(.answer, "alibaba-v2: the answer's data (mode \(mode)) is \(bytes.count) bytes, too short for IV and ciphertext")
        }
        let plaintext = try open(Array(bytes.dropFirst(ivLength)), encryption: sealed, key: key, iv: Array(bytes.prefix(ivLength)))
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw HTTPDNSProblem(.answer, "alibaba-v2: the answer's data (mode \(mode)) decrypts to bytes that are not UTF-8")
        }
        var opened = envelope
        opened["mode"] = "0"
        opened["data"] = text
        guard let rewritten = try? JSONSerialization.data(withJSONObject: opened, options: [.sortedKeys]) else { return body }
        return rewritten
    }

    private static func seal(
        _ plaintext: [UInt8], encryption: HTTPDNSAuth.AlibabaV2Encryption, key: String, iv: [UInt8]
    ) throws(HTTPDNSProblem) -> [UInt8] {
        let keyBytes = try bytes(ofHex: key, what: "key")
        do throws(OpenSSLCrypto.Failure) {
            switch encryption {
            case .none: return plaintext
            case .aesCBC: return try OpenSSLCrypto.encrypt(.aes128CBC, key: keyBytes, iv: iv, plaintext)
            case .aesGCM: return try OpenSSLCrypto.sealAES128GCM(key: keyBytes, iv: iv, plaintext)
            }
        } catch {
            throw .crypto(error, scheme: .alibabaV2)
        }
    }

    private static func open(
        _ ciphertext: [UInt8], encryption: HTTPDNSAuth.AlibabaV2Encryption, key: String, iv: [UInt8]
    ) throws(HTTPDNSProblem) -> [UInt8] {
        let keyBytes = try bytes(ofHex: key, what: "key")
        do throws(OpenSSLCrypto.Failure) {
            switch encryption {
            case .none: return ciphertext
            case .aesCBC: return try OpenSSLCrypto.decrypt(.aes128CBC, key: keyBytes, iv: iv, ciphertext)
            case .aesGCM: return try OpenSSLCrypto.openAES128GCM(key: keyBytes, iv: iv, ciphertext)
            }
        } catch {
            throw .crypto(error, scheme: .alibabaV2)
        }
    }

    /// The bytes a hex credential stands for (the plan check refuses any that is not hex).
    private static func bytes(ofHex text: String, what: String) throws(HTTPDNSProblem) -> [UInt8] {
        guard case .bytes(let bytes) = Hex.decode(Array(text.utf8)), !bytes.isEmpty else {
            throw HTTPDNSProblem(.crypto, "alibaba-v2: the \(what) is not hex")
        }
        return bytes
    }
}

extension HTTPDNSAuth.AlibabaV2Encryption {
    /// The AES key, hex; nil in clear.
    var key: String? {
        switch self {
        case .none: nil
        case .aesCBC(let key), .aesGCM(let key): key
        }
    }
}
