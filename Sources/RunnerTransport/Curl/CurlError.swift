internal import CCurlShim
import RunnerVocabulary

/// A libcurl (or shim) call that failed, with the call named: the one place where
/// CURLcode, CURLMcode and CURLSHcode become Swift errors. Public as the engine's setup error.
public struct CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failing call, e.g. `curl_easy_setopt(CURLOPT_URL)`.
    public var call: String
    /// The libcurl result code (CURLcode, CURLMcode or CURLSHcode; -1 when a call returned NULL).
    public var code: Int
    public var message: String

    public var description: String { "\(call) failed (\(code)): \(message)" }

    /// An easy-interface failure (CURLcode), with libcurl's text for it.
    static func easy(_ code: CURLcode, call: String) -> CurlError {
        CurlError(call: call, code: Int(code.rawValue), message: easyText(code))
    }

    static func multi(_ code: CURLMcode, call: String) -> CurlError {
        CurlError(call: call, code: Int(code.rawValue), message: String(cString: curl_multi_strerror(code)))
    }

    static func share(_ code: CURLSHcode, call: String) -> CurlError {
        CurlError(call: call, code: Int(code.rawValue), message: String(cString: curl_share_strerror(code)))
    }

    /// A constructor that returned NULL (libcurl gives no code then).
    static func null(call: String, what: String) -> CurlError {
        CurlError(call: call, code: -1, message: "returned NULL (\(what))")
    }

    /// libcurl's generic text for a transfer result code.
    static func easyText(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }

    /// The same error as the failure of one transfer (a setup call refused its options).
    var transferFailure: TransferError {
        TransferError(kind: TransferError.Kind(curlCode: code), message: description, curlCode: code)
    }
}

/// Throws when an easy call did not return CURLE_OK; `call` is only built on failure.
@inline(__always)
func checkEasy(_ code: CURLcode, _ call: @autoclosure () -> String) throws(CurlError) {
    if code != CURLE_OK { throw CurlError.easy(code, call: call()) }
}

@inline(__always)
func checkMulti(_ code: CURLMcode, _ call: @autoclosure () -> String) throws(CurlError) {
    if code != CURLM_OK { throw CurlError.multi(code, call: call()) }
}

@inline(__always)
func checkShare(_ code: CURLSHcode, _ call: @autoclosure () -> String) throws(CurlError) {
    if code != CURLSHE_OK { throw CurlError.share(code, call: call()) }
}
