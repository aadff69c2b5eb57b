internal import CCurlShim

/// A curl_slist (libcurl copies each line); freed when the list goes away.
final class StringList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?
    /// The lines the list holds, so a handle can tell the next transfer's lines are the same.
    let lines: [String]

    init(_ lines: [String]) throws(CurlError) {
        self.lines = lines
        for line in lines {
            // withCString: a native string's own bytes (an implicit conversion copies it into an array first).
            guard let grown = line.withCString({ curl_slist_append(raw, $0) }) else {
                curl_slist_free_all(raw)
                raw = nil
                throw CurlError.null(call: "curl_slist_append", what: "out of memory")
            }
            raw = grown
        }
    }

    deinit { curl_slist_free_all(raw) }
}
