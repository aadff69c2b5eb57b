import Foundation
import RunnerPlan

/// Volcengine HTTPDNS signed queries: `timestamp` is the expiry time in Unix milliseconds and
/// `sign` the lower-case hex MD5 of the values of secret, timestamp, `account_id`, `domain`,
/// `ip` and `type` (a missing one is the empty string), sorted as byte strings, joined by `_`.
enum VolcengineSign {
    /// The query parameters whose values are signed, beside the secret and the timestamp.
    static let signedParameters = ["account_id", "domain", "ip", "type"]

    /// `sign` for the secret, the timestamp and the signed parameters' values.
    static func signature(secret: String, timestamp: Int64, values: [String]) throws(OpenSSLCrypto.Failure) -> String {
        let sorted = ([secret, String(timestamp)] + values).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Hex.lowercase(try OpenSSLCrypto.md5(Array(sorted.joined(separator: "_").utf8)))
    }

    /// `url` with `timestamp` and `sign` set, valid until `now + validFor`.
    static func sign(_ url: String, secret: String, now: Date, validFor: Duration) throws(HTTPDNSProblem) -> String {
        var query = HTTPDNSQueryParameters(url: url)
        var values: [String] = []
        for name in signedParameters {
            values.append(try query.value(name) ?? "")
        }
        let timestamp = HTTPDNSAuthClock.expiryMilliseconds(now: now, validFor: validFor)
        let signature: String
        do throws(OpenSSLCrypto.Failure) {
            signature = try Self.signature(secret: secret, timestamp: timestamp, values: values)
        } catch {
            throw .crypto(error, scheme: .volcengineSign)
        }
        query.set("timestamp", to: String(timestamp))
        query.set("sign", to: signature)
        return query.url
    }
}
