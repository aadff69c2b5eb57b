import Crypto
import Foundation
import NIOHTTP1
import RunnerHTTPDNS

/// The check Volcengine HTTPDNS makes on a signed query, with the time passed in.
///
/// `sign` must be the lower-case hex MD5 of the values of the secret, `timestamp`, `account_id`,
/// `domain`, `ip` and `type` (a missing `ip` or `type` is the empty string), sorted as byte
/// strings and joined with `_`. The lab reads `timestamp` as the query's expiry in Unix
/// milliseconds (the vendor's documentation does not say whether it is an expiry or the request
/// time; one official client sends now + 1 h): past is `SignatureExpired`, more than
/// `LabDNS.volcengineMaxValidity` ahead is `InvalidDuration`.
enum VolcengineSignature {
    /// Why the service refuses a query: its error code, HTTP status and a message for people.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let code: String
        let status: HTTPResponseStatus
        let message: String

        var description: String { "\(code) (HTTP \(status.code)): \(message)" }

        static func missing(_ name: String) -> Refusal {
            Refusal(code: "MissingArgument", status: .badRequest, message: "\(name) is required")
        }
    }

    /// The parameters that must be present, in the order a refusal names the first one missing.
    static let requiredParameters = ["domain", "account_id", "timestamp", "sign"]
    /// The parameters whose values are signed besides the secret and the timestamp.
    static let signedParameters = ["account_id", "domain", "ip", "type"]

    /// `sign` for `secret`, `timestamp` and the signed parameters' `values`.
    static func signature(secret: String, timestamp: String, values: [String]) -> String {
        let sorted = ([secret, timestamp] + values).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Hex.lowercase(Insecure.MD5.hash(data: Data(sorted.joined(separator: "_").utf8)))
    }

    /// Why the service refuses the query `pairs` at `now`, or nil when its signature holds.
    static func refusal(_ pairs: [(name: String, value: String)], now: Date) -> Refusal? {
        for name in requiredParameters {
            guard let value = HTTPDNSService.parameter(name, in: pairs), !value.isEmpty else { return .missing(name) }
        }
        let timestampText = HTTPDNSService.parameter("timestamp", in: pairs) ?? ""
        guard let timestamp = Int64(timestampText) else {
            return Refusal(
                code: "InvalidArgument", status: .badRequest,
                message: "timestamp must be Unix milliseconds, got \"\(timestampText)\"")
        }
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if timestamp < nowMilliseconds {
            return Refusal(code: "SignatureExpired", status: .forbidden, message: "the timestamp \(timestamp) has passed")
        }
        if timestamp > nowMilliseconds + LabDNS.volcengineMaxValidity {
            return Refusal(
                code: "InvalidDuration", status: .forbidden,
                message: "the timestamp \(timestamp) is more than 24 hours ahead")
        }
        let values = signedParameters.map { HTTPDNSService.parameter($0, in: pairs) ?? "" }
        let expected = signature(secret: LabDNS.volcengineSecret, timestamp: timestampText, values: values)
        guard HTTPDNSService.parameter("sign", in: pairs) == expected else {
            return Refusal(code: "InvalidSignature", status: .forbidden, message: "the signature does not match")
        }
        return nil
    }
}
