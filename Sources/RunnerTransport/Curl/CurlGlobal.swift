internal import CCurlShim

/// curl_global_init, exactly once per process, whichever thread gets here first.
enum CurlGlobal {
    /// Swift runs a global's initialiser once, thread-safely (swift_once): that is the
    /// "once" libcurl's global init needs.
    private static let result: Int = Int(curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue)

    static func ensureInitialized() throws(CurlError) {
        let code = result
        if code != CurlCode.ok {
            throw CurlError(call: "curl_global_init", code: code, message: CurlCode.text(code))
        }
    }
}
