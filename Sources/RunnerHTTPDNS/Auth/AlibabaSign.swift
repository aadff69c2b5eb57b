import Foundation
import RunnerPlan

/// Alibaba Cloud EMAS HTTPDNS signed queries (`sign_d`): `t` is the expiry time in Unix
/// seconds and `s` the lower-case hex MD5 of `HOST-SECRET-t`. Only `host` is signed (as the
/// query holds it, a comma list included); `ip` and `query` are not.
enum AlibabaSign {
    /// `s` for a host (or comma list of hosts) and an expiry time.
    static func signature(host: String, secret: String, expiry: Int64) throws(OpenSSLCrypto.Failure) -> String {
        Hex.lowercase(try OpenSSLCrypto.md5(Array("\(host)-\(secret)-\(expiry)".utf8)))
    }

    /// `url` with `t` and `s` set, valid until `now + validFor`.
    static func sign(_ url: String, secret: String, now: Date, validFor: Duration) throws(HTTPDNSProblem) -> String {
        var query = HTTPDNSQueryParameters(url: url)
        guard let host = try query.value("host") else {
            throw HTTPDNSProblem(.query, "alibaba-sign signs the 'host' parameter, and the URL has none")
        }
        let expiry = HTTPDNSAuthClock.expiryMilliseconds(now: now, validFor: validFor) / 1000
        let signature: String
        do throws(OpenSSLCrypto.Failure) {
            signature = try Self.signature(host: host, secret: secret, expiry: expiry)
        } catch {
            throw .crypto(error, scheme: .alibabaSign)
        }
        query.set("t", to: String(expiry))
        query.set("s", to: signature)
        return query.url
    }
}
