internal import CCurlShim

/// A curl_slist (libcurl copies each line); freed when the list goes away.
final class StringList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) throws(CurlError) {
        for line in lines {
            guard let grown = curl_slist_append(raw, line) else {
                curl_slist_free_all(raw)
                raw = nil
                throw CurlError.null(call: "curl_slist_append", what: "out of memory")
            }
            raw = grown
        }
    }

    deinit { curl_slist_free_all(raw) }
}
