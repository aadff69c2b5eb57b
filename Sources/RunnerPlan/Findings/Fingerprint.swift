internal import CCryptoShim

/// The SHA-256 of a finding's identity, through the runner's OpenSSL facade (CCryptoShim).
enum Fingerprint {
    /// Lower-case hex of the SHA-256 of the text's UTF-8 bytes.
    static func sha256Hex(_ text: String) throws(PlanErrorFormat.Failure) -> String {
        let bytes = Array(text.utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                ccrypto_sha256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        guard status == CCRYPTO_OK else { throw .fingerprintUnavailable }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
