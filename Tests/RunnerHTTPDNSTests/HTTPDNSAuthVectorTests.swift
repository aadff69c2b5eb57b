import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// The services' published examples, exactly, and known answers computed with the `openssl`
/// command line (the command is beside each).
@Suite("HTTPDNS auth test vectors")
struct HTTPDNSAuthVectorTests {
    @Test("Alibaba: md5 of HOST-SECRET-t for one host")
    func alibabaOneHost() throws {
        #expect(try AlibabaSign.signature(host: "www.aliyun.com", secret: "IAmASecret", expiry: 1534316400)
            == "60c71e98b6d7fcbb366243e224eab457")
    }

    @Test("Alibaba: md5 of HOST-SECRET-t for a comma list of hosts")
    func alibabaHostList() throws {
        #expect(try AlibabaSign.signature(host: "www.aliyun.com,www.taobao.com", secret: "IAmASecret", expiry: 1534316400)
            == "12a3f6b1b14a46ca813ca6439beb59a4")
    }

    @Test("Volcengine: md5 of the sorted values joined with _, missing ip and type empty")
    func volcengine() throws {
        let values = ["1023", "www.a.com,www.b.com", "", ""]  // account_id, domain, ip, type
        #expect(try VolcengineSign.signature(secret: "QlgAuFMwNUwN", timestamp: 1566808387000, values: values)
            == "4b00a808d49a334991b7e50d324a9287")
        // The text signed, as the service documents it.
        #expect(try Hex.lowercase(OpenSSLCrypto.md5(Array("__1023_1566808387000_QlgAuFMwNUwN_www.a.com,www.b.com".utf8)))
            == "4b00a808d49a334991b7e50d324a9287")
    }

    @Test("DNSPod DES: key dnspodpass, www.dnspod.cn")
    func dnspodDES() throws {
        let cipher = try DNSPodCipher(.des, key: "dnspodpass")
        #expect(try cipher.encrypt("www.dnspod.cn", iv: []) == "87ae992c1321f299da3c0210a9900ae7")
        #expect(try cipher.decrypt(Data("87ae992c1321f299da3c0210a9900ae7".utf8)) == Data("www.dnspod.cn".utf8))
    }

    /// printf www.dnspod.cn | openssl enc -aes-128-cbc -K $(printf dnspodpass000000 | xxd -p)
    ///     -iv 000102030405060708090a0b0c0d0e0f | xxd -p
    static let aesIV = Array(UInt8(0)...UInt8(15))
    static let aesWire = "000102030405060708090a0b0c0d0e0f" + "38d6de1c8480194edec2947eca9d7fa1"

    @Test("DNSPod AES: a fixed IV gives openssl's answer, IV first, key padded with '0'")
    func dnspodAESKnownAnswer() throws {
        let cipher = try DNSPodCipher(.aes, key: "dnspodpass")
        #expect(try cipher.encrypt("www.dnspod.cn", iv: Self.aesIV) == Self.aesWire)
        // The same key written out to 16 bytes is the same key.
        #expect(try DNSPodCipher(.aes, key: "dnspodpass000000").encrypt("www.dnspod.cn", iv: Self.aesIV) == Self.aesWire)
    }

    /// printf 'answer-that-spans-two-aes-blocks' | openssl enc -aes-128-cbc
    ///     -K $(printf 0123456789abcdef | xxd -p) -iv ffeeddccbbaa99887766554433221100 | xxd -p -c 64
    @Test("DNSPod AES: a 32-byte value takes three blocks (a whole block of padding)")
    func dnspodAESWholePaddingBlock() throws {
        let cipher = try DNSPodCipher(.aes, key: "0123456789abcdef")
        let iv = Array(UInt8(0)...UInt8(15)).reversed().map { $0 * 0x11 }
        let wire = try cipher.encrypt("answer-that-spans-two-aes-blocks", iv: iv)
        #expect(wire.hasPrefix("ffeeddccbbaa99887766554433221100"))
        #expect(wire.count == 2 * (16 + 48))
        #expect(try cipher.decrypt(Data(wire.utf8)) == Data("answer-that-spans-two-aes-blocks".utf8))
        #expect(wire == "ffeeddccbbaa99887766554433221100"
            + "9c075dc1251bc62f0e25d3143f38f7937081b75c622e9af216f404327da0a8658327b0dabe71994e2e9899dc7d2d3690")
    }

    @Test("DNSPod AES: round trip with random IVs, and two encryptions of one value differ")
    func dnspodAESRandomIV() throws {
        let auth = HTTPDNSAuth.dnspodAES(key: "dnspodpass")
        let url = "http://119.29.29.98/d?dn=www.dnspod.cn&id=12345"
        let first = try auth.authorizedURL(url, now: Date(timeIntervalSince1970: 0))
        let second = try auth.authorizedURL(url, now: Date(timeIntervalSince1970: 0))
        #expect(first != second)
        for sent in [first, second] {
            let dn = try #require(try HTTPDNSQueryParameters(url: sent).value("dn"))
            #expect(dn.count == 64)
            let cipher = try DNSPodCipher(.aes, key: "dnspodpass")
            #expect(try cipher.decrypt(Data(dn.utf8)) == Data("www.dnspod.cn".utf8))
        }
    }
}
