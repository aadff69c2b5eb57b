internal import CCurlShim

/// The libcurl this process runs with, as `runner --version` names it for bug reports.
public enum CurlLibrary {
    /// libcurl's own line: `libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 … nghttp2/1.52.0`.
    public static var version: String {
        guard let text = curl_version() else { return "libcurl (version unknown)" }
        return String(cString: text)
    }
}
