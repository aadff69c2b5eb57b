internal import CCryptoShim

/// The lab's one door to OpenSSL (through CCryptoShim): the block ciphers of DNSPod D+'s encrypted
/// interface and random IVs, as Swift values and a Swift error; no C type leaves this file.
enum OpenSSLCipher {
    /// The ciphers the lab needs, both with PKCS padding.
    enum Kind: Sendable, CustomStringConvertible {
        /// DES-EDE3-ECB: a 24-byte key (one 8-byte DES key three times computes single DES,
        /// which OpenSSL 3 keeps only in its legacy provider), no IV.
        case desEDE3ECB
        /// AES-128-CBC: a 16-byte key and a 16-byte IV.
        case aes128CBC

        /// Bytes per block: ciphertext is a whole number of them.
        var blockSize: Int {
            switch self {
            case .desEDE3ECB: 8
            case .aes128CBC: 16
            }
        }

        var description: String {
            switch self {
            case .desEDE3ECB: "DES-EDE3-ECB"
            case .aes128CBC: "AES-128-CBC"
            }
        }

        fileprivate var cipher: ccrypto_cipher {
            switch self {
            case .desEDE3ECB: CCRYPTO_DES_EDE3_ECB
            case .aes128CBC: CCRYPTO_AES_128_CBC
            }
        }
    }

    /// What OpenSSL reported, with the operation it was asked for.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// A key, IV or buffer of the wrong size: a bug in the lab.
        case badArgument(operation: String)
        /// OpenSSL does not provide the algorithm (a stripped build, a FIPS-only configuration).
        case unavailable(operation: String)
        /// Decryption ended on bad padding: the wrong key, or not this cipher's output.
        case badPadding(operation: String)
        /// Any other failure inside OpenSSL.
        case failed(operation: String)

        var description: String {
            switch self {
            case .badArgument(let operation): "\(operation): a key, IV or buffer of the wrong size"
            case .unavailable(let operation): "\(operation): OpenSSL does not provide it"
            case .badPadding(let operation): "\(operation): bad padding (wrong key, or not this cipher's output)"
            case .failed(let operation): "\(operation): OpenSSL failed"
            }
        }
    }

    /// `plaintext` encrypted, padded to a whole number of blocks.
    static func encrypt(_ kind: Kind, key: [UInt8], iv: [UInt8] = [], _ plaintext: [UInt8]) throws(Failure) -> [UInt8] {
        try crypt(kind, encrypt: true, key: key, iv: iv, plaintext)
    }

    /// `ciphertext` decrypted, its padding checked and removed.
    static func decrypt(_ kind: Kind, key: [UInt8], iv: [UInt8] = [], _ ciphertext: [UInt8]) throws(Failure) -> [UInt8] {
        try crypt(kind, encrypt: false, key: key, iv: iv, ciphertext)
    }

    /// `count` bytes from OpenSSL's CSPRNG (fresh IVs).
    static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            ccrypto_random_bytes(buffer.baseAddress, buffer.count)
        }
        try check(status, operation: "random bytes")
        return bytes
    }

    private static func crypt(
        _ kind: Kind, encrypt: Bool, key: [UInt8], iv: [UInt8], _ input: [UInt8]
    ) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count + kind.blockSize)
        var written = 0
        let status = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                input.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        ccrypto_crypt(
                            kind.cipher, encrypt ? 1 : 0, key.baseAddress, key.count, iv.baseAddress, iv.count,
                            input.baseAddress, input.count, output.baseAddress, output.count, &written)
                    }
                }
            }
        }
        try check(status, operation: "\(kind) \(encrypt ? "encryption" : "decryption")")
        return Array(output.prefix(written))
    }

    private static func check(_ status: ccrypto_status, operation: String) throws(Failure) {
        switch status {
        case CCRYPTO_OK: return
        case CCRYPTO_BAD_ARGUMENT: throw .badArgument(operation: operation)
        case CCRYPTO_UNAVAILABLE: throw .unavailable(operation: operation)
        case CCRYPTO_BAD_PADDING: throw .badPadding(operation: operation)
        default: throw .failed(operation: operation)
        }
    }
}
