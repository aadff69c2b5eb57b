internal import CCurlShim

/// A curl share handle holding one connection pool (and its TLS session cache).
///
/// libcurl matches a connection for reuse by scheme, URL host, port, connect-to target and
/// TLS options, not by our notion of identity: two transfers to the same IP with different
/// verification names look identical to it, and a trust-override connection whose name was
/// set by the SSL_CTX callback would be handed to a transfer that expects another name (the
/// callback does not run again on reuse). Giving each pool key its own share, with
/// CURL_LOCK_DATA_CONNECT, gives it its own connection cache, so reuse can only happen inside
/// one key. Sharing CURL_LOCK_DATA_SSL_SESSION too keeps TLS session resumption inside the key
/// (an easy handle's own session cache would otherwise travel with the handle from key to key).
final class ShareHandle {
    let raw: UnsafeMutableRawPointer

    init() throws(CurlError) {
        guard let raw = curl_share_init() else {
            throw CurlError.null(call: "curl_share_init", what: "out of memory")
        }
        self.raw = raw
        do {
            try checkShare(
                ccurl_share_setopt_lock_data(raw, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT),
                "curl_share_setopt(CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT)")
            try checkShare(
                ccurl_share_setopt_lock_data(raw, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION),
                "curl_share_setopt(CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION)")
        } catch {
            curl_share_cleanup(raw)
            throw error
        }
        // No lock callbacks: the engine uses its handles on one thread only.
    }

    /// Closes the pool's idle connections. Every easy handle has detached by now (an easy
    /// handle keeps its share alive while attached).
    deinit { curl_share_cleanup(raw) }
}
