internal import CCryptoShim

/// The one place RunnerHTTPDNS calls OpenSSL (through CCryptoShim): MD5, SHA-256, HMAC-SHA256,
/// the two DNSPod ciphers, AES-128-GCM and random bytes, as Swift values and a Swift error; no C
/// type leaves this file.
package enum OpenSSLCrypto {
    /// The block ciphers DNSPod's encrypted queries use, both with PKCS padding.
    package enum Cipher: Sendable {
        /// DES-EDE3-ECB: a 24-byte key (DES's 8 bytes three times compute single DES), no IV.
        case desEDE3ECB
        /// AES-128-CBC: a 16-byte key and a 16-byte IV.
        case aes128CBC

        /// Bytes per block: ciphertext is a whole number of them.
        package var blockSize: Int {
            switch self {
            case .desEDE3ECB: 8
            case .aes128CBC: 16
            }
        }

        fileprivate var kind: ccrypto_cipher {
            switch self {
            case .desEDE3ECB: CCRYPTO_DES_EDE3_ECB
            case .aes128CBC: CCRYPTO_AES_128_CBC
            }
        }
    }

    /// What OpenSSL reported, in words.
    package enum Failure: Error, Equatable, Sendable {
        /// A key, IV or buffer of the wrong size: a bug in the caller.
        case badArgument
        /// OpenSSL does not provide the algorithm (a stripped build, a FIPS-only configuration).
        case unavailable(String)
        /// Decryption ended on bad padding: the wrong key, or not this cipher's output.
        case badPadding
        /// A GCM tag that does not match: the wrong key, or altered ciphertext.
        case badTag
        /// Any other failure inside OpenSSL.
        case failed(String)
    }

    /// The OpenSSL loaded at run time (`OpenSSL 3.0.17 1 Jul 2025`), for `runner --version`.
    package static var libraryVersion: String {
        guard let text = ccrypto_openssl_version() else { return "OpenSSL (version unknown)" }
        return String(cString: text)
    }

    /// The 16-byte MD5 digest of `bytes`.
    package static func md5(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        try digest(bytes, size: 16, what: "MD5", ccrypto_md5)
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func sha256(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        try digest(bytes, size: 32, what: "SHA-256", ccrypto_sha256)
    }

    private static func digest(
        _ bytes: [UInt8], size: Int, what: String,
        _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> ccrypto_status
    ) throws(Failure) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                guard let out = output.baseAddress else { return CCRYPTO_BAD_ARGUMENT }
                return function(input.baseAddress, input.count, out)
            }
        }
        try check(status, what: what)
        return digest
    }

    /// `plaintext` encrypted, padded to a whole number of blocks.
    package static func encrypt(_ cipher: Cipher, key: [UInt8], iv: [UInt8] = [], _ plaintext: [UInt8]) throws(Failure) -> [UInt8] {
        try crypt(cipher, encrypt: true, key: key, iv: iv, plaintext)
    }

    /// `ciphertext` decrypted, its padding checked and removed.
    package static func decrypt(_ cipher: Cipher, key: [UInt8], iv: [UInt8] = [], _ ciphertext: [UInt8]) throws(Failure) -> [UInt8] {
        try crypt(cipher, encrypt: false, key: key, iv: iv, ciphertext)
    }

    /// The 32-byte HMAC-SHA256 of `bytes` under `key`.
    package static func hmacSHA256(key: [UInt8], _ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        let status = key.withUnsafeBufferPointer { key in
            bytes.withUnsafeBufferPointer { input in
                mac.withUnsafeMutableBufferPointer { output in
                    ccrypto_hmac_sha256(key.baseAddress, key.count, input.baseAddress, input.count, output.baseAddress)
                }
            }
        }
        try check(status, what: "HMAC-SHA256")
        return mac
    }

    /// `plaintext` sealed with AES-128-GCM: the ciphertext with its 16-byte tag after it.
    package static func sealAES128GCM(key: [UInt8], iv: [UInt8], _ plaintext: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16 else { throw .badArgument }
        return try gcm(encrypt: true, key: key, iv: iv, plaintext, capacity: plaintext.count + 16)
    }

    /// Ciphertext ‖ tag opened with AES-128-GCM, its tag checked.
    package static func openAES128GCM(key: [UInt8], iv: [UInt8], _ sealed: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16 else { throw .badArgument }
        return try gcm(encrypt: false, key: key, iv: iv, sealed, capacity: max(sealed.count, 1))
    }

    private static func gcm(encrypt: Bool, key: [UInt8], iv: [UInt8], _ input: [UInt8], capacity: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: capacity)
        var written = 0
        let status = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                input.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        ccrypto_aes_128_gcm(
                            encrypt ? 1 : 0, key.baseAddress, iv.baseAddress, iv.count, input.baseAddress, input.count,
                            output.baseAddress, output.count, &written)
                    }
                }
            }
        }
        try check(status, what: "AES-128-GCM")
        return Array(output.prefix(written))
    }

    /// `count` bytes from OpenSSL's CSPRNG (IVs).
    package static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            ccrypto_random_bytes(buffer.baseAddress, buffer.count)
        }
        try check(status, what: "random bytes")
        return bytes
    }

    private static func crypt(
        _ cipher: Cipher, encrypt: Bool, key: [UInt8], iv: [UInt8], _ input: [UInt8]
    ) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + cipher.blockSize)
        var written = 0
        let status = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                input.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        ccrypto_crypt(
                            cipher.kind, encrypt ? 1 : 0, key.baseAddress, key.count, iv.baseAddress, iv.count,
                            input.baseAddress, input.count, output.baseAddress, output.count, &written)
                    }
                }
            }
        }
        try check(status, what: "\(cipher)")
        return Array(output.prefix(written))
    }

    private static func check(_ status: ccrypto_status, what: String) throws(Failure) {
        switch status {
        case CCRYPTO_OK: return
        case CCRYPTO_BAD_ARGUMENT: throw .badArgument
        case CCRYPTO_UNAVAILABLE: throw .unavailable("OpenSSL does not provide \(what)")
        case CCRYPTO_BAD_PADDING: throw .badPadding
        case CCRYPTO_BAD_TAG: throw .badTag
        default: throw .failed("OpenSSL failed at \(what)")
        }
    }
}
