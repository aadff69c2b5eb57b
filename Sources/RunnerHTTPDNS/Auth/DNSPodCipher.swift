import Foundation
import RunnerPlan

/// DNSPod / Tencent D+ encrypted queries and answers: lower-case hex on the wire both ways.
///
/// `des`: DES-ECB with PKCS#5 padding under the key's first 8 bytes. `aes`: AES-128-CBC with
/// PKCS#7 padding, the key right-padded with ASCII `0` to 16 bytes, a fresh IV for every value,
/// the IV sent in front of the ciphertext.
struct DNSPodCipher {
    enum Algorithm: Sendable {
        case des
        case aes
    }

    let algorithm: Algorithm
    private let key: [UInt8]

    /// The cipher for a plan's key; a key DES or AES-128 cannot use is a `.crypto` problem
    /// (the plan check refuses those first).
    init(_ algorithm: Algorithm, key: String) throws(HTTPDNSProblem) {
        self.algorithm = algorithm
        let bytes = Array(key.utf8)
        switch algorithm {
        case .des:
            guard bytes.count >= 8 else {
                throw HTTPDNSProblem(.crypto, "dnspod-des: the key is shorter than the 8 bytes DES uses")
            }
            // DES-EDE3 with one key three times is single DES, and needs no legacy provider.
            let desKey = bytes.prefix(8)
            self.key = Array(desKey + desKey + desKey)
        case .aes:
            guard !bytes.isEmpty, bytes.count <= 16 else {
                throw HTTPDNSProblem(.crypto, "dnspod-aes: the key must have 1 to 16 bytes")
            }
            self.key = bytes + Array(repeating: UInt8(ascii: "0"), count: 16 - bytes.count)
        }
    }

    var scheme: HTTPDNSAuth.Scheme { algorithm == .des ? .dnspodDES : .dnspodAES }

    /// The value of `alg` that tells the service which cipher the query uses.
    var parameterValue: String { algorithm == .des ? "des" : "aes" }

    /// Bytes of IV each encryption needs: none for DES-ECB.
    var ivLength: Int { algorithm == .des ? 0 : 16 }

    private var openSSLCipher: OpenSSLCrypto.Cipher { algorithm == .des ? .desEDE3ECB : .aes128CBC }

    /// `plaintext` as it goes on the wire: hex of the ciphertext (DES) or of IV ‖ ciphertext (AES).
    func encrypt(_ plaintext: String, iv: [UInt8]) throws(HTTPDNSProblem) -> String {
        guard iv.count == ivLength else {
            throw HTTPDNSProblem(.crypto, "\(scheme.rawValue): an IV of \(iv.count) bytes, expected \(ivLength)")
        }
        do throws(OpenSSLCrypto.Failure) {
            let ciphertext = try OpenSSLCrypto.encrypt(openSSLCipher, key: key, iv: iv, Array(plaintext.utf8))
            return Hex.lowercase(iv + ciphertext)
        } catch {
            throw .crypto(error, scheme: scheme)
        }
    }

    /// An answer body decrypted: hex (surrounding whitespace ignored) of the ciphertext, with
    /// the IV in front for AES. An empty body stays empty (the service's "no answer").
    func decrypt(_ body: Data) throws(HTTPDNSProblem) -> Data {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let start = body.firstIndex { !isSpace($0) } ?? body.endIndex
        let end = body.lastIndex { !isSpace($0) }.map(body.index(after:)) ?? start
        let text = body[start..<end]
        if text.isEmpty { return Data() }

        let bytes: [UInt8]
        switch Hex.decode(text) {
        case .bytes(let decoded):
            bytes = decoded
        case .notHex(let offset):
            let at = HTTPDNSBodyQuote.escape(text[text.index(text.startIndex, offsetBy: offset)])
            throw malformed("byte \(offset + 1) of the hex, '\(at)', is not a hex digit", body)
        case .oddLength:
            throw malformed("an odd number of hex digits, \(text.count)", body)
        }
        let block = openSSLCipher.blockSize
        guard bytes.count >= ivLength + block else {
            let needs = ivLength > 0 ? "an IV and one \(block)-byte block" : "one \(block)-byte block"
            throw malformed("\(bytes.count) bytes, too short for \(needs)", body)
        }
        guard (bytes.count - ivLength) % block == 0 else {
            throw malformed("\(bytes.count - ivLength) bytes of ciphertext, not a whole number of \(block)-byte blocks", body)
        }
        do throws(OpenSSLCrypto.Failure) {
            let plaintext = try OpenSSLCrypto.decrypt(
                openSSLCipher, key: key, iv: Array(bytes.prefix(ivLength)), Array(bytes.dropFirst(ivLength)))
            return Data(plaintext)
        } catch .badPadding {
            throw HTTPDNSProblem(
                .answer,
                "\(scheme.rawValue) answer does not decrypt with the map's key (bad padding): wrong key? "
                    + HTTPDNSBodyQuote.quote(body))
        } catch {
            throw .crypto(error, scheme: scheme)
        }
    }

    private func malformed(_ reason: String, _ body: Data) -> HTTPDNSProblem {
        HTTPDNSProblem(.answer, "not a \(scheme.rawValue) answer (\(reason)): \(HTTPDNSBodyQuote.quote(body))")
    }
}
