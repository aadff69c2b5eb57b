internal import CCurlShim

/// Incremental SHA-256 (OpenSSL EVP), reusable: `reset()`, `update` while streaming, `finish()`.
final class SHA256Digest {
    private let raw: OpaquePointer

    init() throws(CurlError) {
        guard let raw = ccurl_sha256_create() else {
            throw CurlError.null(call: "ccurl_sha256_create", what: "EVP SHA-256 unavailable")
        }
        self.raw = raw
    }

    deinit { ccurl_sha256_destroy(raw) }

    /// Starts a new digest; false on an OpenSSL error.
    func reset() -> Bool { ccurl_sha256_reset(raw) == 1 }

    func update(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return ccurl_sha256_update(raw, base, bytes.count) == 1
    }

    /// The digest in lower-case hex, nil on an OpenSSL error.
    func finish() -> String? {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let ok = withUnsafeMutableBytes(of: &digest) { buffer in
            ccurl_sha256_finish(raw, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)) == 1
        }
        guard ok else { return nil }
        return withUnsafeBytes(of: &digest) { lowercaseHex($0) }
    }
}

/// Lower-case hex of some bytes.
func lowercaseHex(_ bytes: UnsafeRawBufferPointer) -> String {
    let digits: StaticString = "0123456789abcdef"
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
        digits.withUTF8Buffer { table in
            for (index, byte) in bytes.enumerated() {
                out[index * 2] = table[Int(byte >> 4)]
                out[index * 2 + 1] = table[Int(byte & 0x0f)]
            }
        }
        return bytes.count * 2
    }
}
