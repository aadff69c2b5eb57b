internal import CCryptoShim

/// The TLS names a plan may use, checked against the OpenSSL the runner runs with: a name it
/// does not know would otherwise be dropped silently (a cipher list) or fail every handshake.
enum TLSNames {
    /// A TLS 1.2-and-below cipher by its OpenSSL name (`ECDHE-RSA-AES128-GCM-SHA256`).
    static func isCipher(_ name: String) -> Bool { ccrypto_tls_is_cipher(name) == 1 }

    /// A TLS 1.3 suite (`TLS_AES_128_GCM_SHA256`).
    static func isTLS13Cipher(_ name: String) -> Bool { ccrypto_tls_is_tls13_cipher(name) == 1 }

    /// A group (curve) name (`X25519`, `P-256`).
    static func isGroup(_ name: String) -> Bool { ccrypto_tls_is_group(name) == 1 }
}
