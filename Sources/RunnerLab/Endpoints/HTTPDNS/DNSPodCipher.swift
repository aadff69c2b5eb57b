import RunnerHTTPDNS
/// DNSPod D+'s encrypted interface as the service applies it: lower-case hex on the wire both ways.
///
/// `des`: DES-ECB with PKCS#5 padding under the key's first 8 bytes (computed as DES-EDE3 with
/// those 8 bytes three times). `aes`: AES-128-CBC with PKCS#7 padding, the key right-padded with
/// ASCII `0` to 16 bytes (as the vendor's Android SDK pads it), a fresh random IV for every value,
/// wire = hex(IV ‖ ciphertext).
struct DNSPodCipher: Sendable {
    /// The values of `alg=`.
    enum Algorithm: String, Sendable {
        case des
        case aes
    }

    /// A value that does not decrypt under the lab's key, or that the lab could not encrypt.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let algorithm: Algorithm
    private let key: [UInt8]

    /// The cipher for `key`; DES needs at least 8 bytes, AES-128 at most 16 (`LabDNS.dnspodKey` fits both).
    init(_ algorithm: Algorithm, key: String) throws(Failure) {
        self.algorithm = algorithm
        let bytes = Array(key.utf8)
        switch algorithm {
        case .des:
            guard bytes.count >= 8 else { throw Failure(description: "a DES key needs 8 bytes, got \(bytes.count)") }
            let single = bytes.prefix(8)
            self.key = Array(single + single + single)
        case .aes:
            guard !bytes.isEmpty, bytes.count <= 16 else {
                throw Failure(description: "an AES-128 key has 1 to 16 bytes, got \(bytes.count)")
            }
            self.key = bytes + Array(repeating: UInt8(ascii: "0"), count: 16 - bytes.count)
        }
    }

    private var kind: OpenSSLCrypto.Cipher { algorithm == .des ? .desEDE3ECB : .aes128CBC }
    private var ivLength: Int { algorithm == .des ? 0 : 16 }

    /// `plaintext` as it goes on the wire: hex of the ciphertext (DES) or of a fresh IV ‖ ciphertext (AES).
    func encrypt(_ plaintext: String) throws(Failure) -> String {
        do throws(OpenSSLCrypto.Failure) {
            let iv = try OpenSSLCrypto.randomBytes(ivLength)
            return Hex.lowercase(iv + (try OpenSSLCrypto.encrypt(kind, key: key, iv: iv, Array(plaintext.utf8))))
        } catch {
            throw Failure(description: "dnspod \(algorithm.rawValue): OpenSSL: \(error)")
        }
    }

    /// The text a wire value stands for; throws when it is not hex, not whole blocks, does not
    /// decrypt under the key (bad padding) or is not UTF-8.
    func decrypt(_ wire: String) throws(Failure) -> String {
        guard case .bytes(let bytes) = Hex.decode(wire.utf8) else {
            throw Failure(description: "dnspod \(algorithm.rawValue): \"\(wire)\" is not hex")
        }
        let ciphertext = bytes.dropFirst(ivLength)
        guard bytes.count >= ivLength + kind.blockSize, ciphertext.count % kind.blockSize == 0 else {
            throw Failure(
                description: "dnspod \(algorithm.rawValue): \(bytes.count) bytes is not "
                    + (ivLength > 0 ? "an IV and " : "") + "whole \(kind.blockSize)-byte blocks")
        }
        let plaintext: [UInt8]
        do throws(OpenSSLCrypto.Failure) {
            plaintext = try OpenSSLCrypto.decrypt(kind, key: key, iv: Array(bytes.prefix(ivLength)), Array(ciphertext))
        } catch {
            throw Failure(description: "dnspod \(algorithm.rawValue): OpenSSL: \(error)")
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else {
            throw Failure(description: "dnspod \(algorithm.rawValue): the plaintext is not UTF-8")
        }
        return text
    }
}
