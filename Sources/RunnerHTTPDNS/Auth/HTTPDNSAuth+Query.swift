import Foundation
import RunnerPlan

/// What a map's `auth` does to its queries and answers. Pure but for the random AES IVs:
/// the time is passed in, never read here.
extension HTTPDNSAuth {
    /// The parameters the DNSPod ciphers encrypt, when the query has them.
    static let dnspodEncryptedParameters = ["dn", "ip"]

    /// The URL to send for a query URL (`{host}` filled in, family parameter added), signed or
    /// encrypted for this scheme at `now`.
    package func authorizedURL(_ url: String, now: Date) throws(HTTPDNSProblem) -> String {
        try authorizedURL(url, now: now) { count throws(HTTPDNSProblem) in
            do throws(OpenSSLCrypto.Failure) {
                return try OpenSSLCrypto.randomBytes(count)
            } catch {
                throw .crypto(error, scheme: scheme)
            }
        }
    }

    /// `authorizedURL(_:now:)` with the IVs from `makeIV` (given the length wanted): tests pin them.
    func authorizedURL(
        _ url: String, now: Date, makeIV: (Int) throws(HTTPDNSProblem) -> [UInt8]
    ) throws(HTTPDNSProblem) -> String {
        switch self {
        case .alibabaSign(let secret, let validFor):
            return try AlibabaSign.sign(url, secret: secret, now: now, validFor: validFor)
        case .volcengineSign(let secret, let validFor):
            return try VolcengineSign.sign(url, secret: secret, now: now, validFor: validFor)
        case .dnspodDES(let key):
            return try Self.encryptQuery(url, cipher: DNSPodCipher(.des, key: key), makeIV: makeIV)
        case .dnspodAES(let key):
            return try Self.encryptQuery(url, cipher: DNSPodCipher(.aes, key: key), makeIV: makeIV)
        case .alibabaV2(let secret, let encryption, let validFor):
            return try AlibabaV2Sign.sign(url, secret: secret, encryption: encryption, now: now, validFor: validFor, makeIV: makeIV)
        }
    }

    /// The body to read as the map's format: a DNSPod cipher's answer decrypted, an encrypted
    /// `/v2/d` answer's `data` decrypted, a signed scheme's answer as it came.
    package func decryptAnswer(body: Data) throws(HTTPDNSProblem) -> Data {
        switch self {
        case .alibabaSign, .volcengineSign: return body
        case .dnspodDES(let key): return try DNSPodCipher(.des, key: key).decrypt(body)
        case .dnspodAES(let key): return try DNSPodCipher(.aes, key: key).decrypt(body)
        case .alibabaV2(_, let encryption, _): return try AlibabaV2Sign.decryptAnswer(body, encryption: encryption)
        }
    }

    /// `dn` and `ip` replaced by their encryption, and `alg` set to the cipher.
    private static func encryptQuery(
        _ url: String, cipher: DNSPodCipher, makeIV: (Int) throws(HTTPDNSProblem) -> [UInt8]
    ) throws(HTTPDNSProblem) -> String {
        var query = HTTPDNSQueryParameters(url: url)
        guard query.has("dn") else {
            throw HTTPDNSProblem(.query, "\(cipher.scheme.rawValue) encrypts the 'dn' parameter, and the URL has none")
        }
        for name in dnspodEncryptedParameters {
            try query.replaceValues(of: name) { plain throws(HTTPDNSProblem) in
                try cipher.encrypt(plain, iv: makeIV(cipher.ivLength))
            }
        }
        query.set("alg", to: cipher.parameterValue)
        return query.url
    }
}
