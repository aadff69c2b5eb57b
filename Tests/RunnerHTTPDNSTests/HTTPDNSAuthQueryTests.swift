import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// The URL each scheme sends for a fixed `now`, and what becomes of encrypted answers.
@Suite("HTTPDNS auth: query URLs and answers")
struct HTTPDNSAuthQueryTests {
    struct URLCase: Sendable, CustomTestStringConvertible {
        var name: String
        var auth: HTTPDNSAuth
        var url: String
        /// Unix seconds.
        var now: Double
        var expected: String

        var testDescription: String { name }
    }

    static let ali = "https://203.107.1.1/139450/sign_d"
    static let volc = "https://httpdns.volcengineapi.com/resolve"
    static let dnspod = "http://119.29.29.98/d"
    static let aliSign = HTTPDNSAuth.alibabaSign(secret: "IAmASecret", validFor: .seconds(600))
    static let volcSign = HTTPDNSAuth.volcengineSign(secret: "QlgAuFMwNUwN", validFor: .seconds(600))
    /// The two published Alibaba signatures, for t = 1534316400.
    static let oneHost = "t=1534316400&s=60c71e98b6d7fcbb366243e224eab457"
    static let twoHosts = "t=1534316400&s=12a3f6b1b14a46ca813ca6439beb59a4"

    static let cases: [URLCase] = [
        URLCase(
            name: "alibaba: t is now + valid_for (the expiry), then s", auth: aliSign,
            url: "\(ali)?host=www.aliyun.com", now: 1534316400 - 600, expected: "\(ali)?host=www.aliyun.com&\(oneHost)"),
        URLCase(
            name: "alibaba: a comma list is signed and sent as written", auth: aliSign,
            url: "\(ali)?host=www.aliyun.com,www.taobao.com", now: 1534315800,
            expected: "\(ali)?host=www.aliyun.com,www.taobao.com&\(twoHosts)"),
        URLCase(
            name: "alibaba: a percent-encoded comma stays encoded, the list is signed decoded", auth: aliSign,
            url: "\(ali)?host=www.aliyun.com%2Cwww.taobao.com", now: 1534315800,
            expected: "\(ali)?host=www.aliyun.com%2Cwww.taobao.com&\(twoHosts)"),
        URLCase(
            name: "alibaba: ip and query are not signed", auth: aliSign,
            url: "\(ali)?host=www.aliyun.com&ip=192.0.2.1&query=4,6", now: 1534315800,
            expected: "\(ali)?host=www.aliyun.com&ip=192.0.2.1&query=4,6&\(oneHost)"),
        URLCase(
            name: "alibaba: valid_for 90s, t rounded down to the second",
            auth: .alibabaSign(secret: "IAmASecret", validFor: .seconds(90)),
            url: "\(ali)?host=www.aliyun.com", now: 1534316310.75, expected: "\(ali)?host=www.aliyun.com&\(oneHost)"),
        URLCase(
            name: "alibaba: t and s the template already has are replaced in place", auth: aliSign,
            url: "\(ali)?t=1&host=www.aliyun.com&s=x&s=y", now: 1534315800,
            expected: "\(ali)?t=1534316400&host=www.aliyun.com&s=60c71e98b6d7fcbb366243e224eab457"),
        URLCase(
            name: "alibaba: a fragment stays last", auth: aliSign,
            url: "\(ali)?host=www.aliyun.com#part", now: 1534315800, expected: "\(ali)?host=www.aliyun.com&\(oneHost)#part"),
        URLCase(
            name: "volcengine: timestamp in milliseconds, then sign; ip and type missing", auth: volcSign,
            url: "\(volc)?domain=www.a.com,www.b.com&account_id=1023", now: 1566808387 - 600,
            expected: "\(volc)?domain=www.a.com,www.b.com&account_id=1023&timestamp=1566808387000&sign=4b00a808d49a334991b7e50d324a9287"),
        URLCase(
            name: "volcengine: milliseconds of now and of valid_for both count",
            auth: .volcengineSign(secret: "QlgAuFMwNUwN", validFor: .milliseconds(500)),
            url: "\(volc)?account_id=1023&domain=www.a.com,www.b.com", now: 1566808386.5,
            expected: "\(volc)?account_id=1023&domain=www.a.com,www.b.com&timestamp=1566808387000&sign=4b00a808d49a334991b7e50d324a9287"),
        URLCase(
            name: "dnspod-des: dn replaced in place, alg=des last", auth: .dnspodDES(key: "dnspodpass"),
            url: "\(dnspod)?dn=www.dnspod.cn&id=12345&ttl=1", now: 0,
            expected: "\(dnspod)?dn=87ae992c1321f299da3c0210a9900ae7&id=12345&ttl=1&alg=des"),
        // printf 1.2.3.4 | openssl enc -des-ede3 -K <dnspodpa three times> | xxd -p
        URLCase(
            name: "dnspod-des: ip is encrypted too", auth: .dnspodDES(key: "dnspodpass"),
            url: "\(dnspod)?dn=www.dnspod.cn&ip=1.2.3.4&id=12345", now: 0,
            expected: "\(dnspod)?dn=87ae992c1321f299da3c0210a9900ae7&ip=cf153ecae28a3e4f&id=12345&alg=des"),
        URLCase(
            name: "dnspod-aes: hex of IV and ciphertext, alg=aes", auth: .dnspodAES(key: "dnspodpass"),
            url: "\(dnspod)?dn=www.dnspod.cn&id=12345&ttl=1&type=addrs", now: 0,
            expected: "\(dnspod)?dn=\(HTTPDNSAuthVectorTests.aesWire)&id=12345&ttl=1&type=addrs&alg=aes"),
    ]

    @Test("the URL sent for a fixed now", arguments: cases)
    func url(_ item: URLCase) throws {
        // The IVs pinned: the known-answer IV, cut to the length asked (none for DES).
        let sent = try item.auth.authorizedURL(item.url, now: Date(timeIntervalSince1970: item.now)) { count in
            Array(HTTPDNSAuthVectorTests.aesIV.prefix(count))
        }
        #expect(sent == item.expected)
    }

    @Test("a query the scheme cannot sign or encrypt, in words")
    func queryProblems() {
        let cases: [(HTTPDNSAuth, String, String)] = [
            (Self.aliSign, "\(Self.ali)?name=www.aliyun.com",
             "alibaba-sign signs the 'host' parameter, and the URL has none"),
            (.dnspodDES(key: "dnspodpass"), "\(Self.dnspod)?name=www.dnspod.cn",
             "dnspod-des encrypts the 'dn' parameter, and the URL has none"),
            (.dnspodAES(key: "dnspodpass"), Self.dnspod, "dnspod-aes encrypts the 'dn' parameter, and the URL has none"),
            (Self.aliSign, "\(Self.ali)?host=www%zz", "the value of 'host' has a malformed percent-encoding: 'www%zz'"),
            (Self.volcSign, "\(Self.volc)?domain=a.com&type=%G1", "the value of 'type' has a malformed percent-encoding: '%G1'"),
        ]
        for (auth, url, message) in cases {
            #expect(throws: HTTPDNSProblem(kind: .query, detail: message)) {
                try auth.authorizedURL(url, now: Date(timeIntervalSince1970: 0))
            }
        }
    }

    static let des = HTTPDNSAuth.dnspodDES(key: "dnspodpass")
    static let aes = HTTPDNSAuth.dnspodAES(key: "dnspodpass")

    @Test("an encrypted answer is decrypted; surrounding whitespace is ignored, an empty body stays empty")
    func decrypts() throws {
        #expect(try Self.des.decryptAnswer(body: Data("87ae992c1321f299da3c0210a9900ae7\n".utf8)) == Data("www.dnspod.cn".utf8))
        #expect(try Self.des.decryptAnswer(body: Data("87AE992C1321F299DA3C0210A9900AE7".utf8)) == Data("www.dnspod.cn".utf8))
        #expect(try Self.aes.decryptAnswer(body: Data(HTTPDNSAuthVectorTests.aesWire.utf8)) == Data("www.dnspod.cn".utf8))
        #expect(try Self.des.decryptAnswer(body: Data()) == Data())
        #expect(try Self.aes.decryptAnswer(body: Data(" \r\n".utf8)) == Data())
    }

    @Test("a signed scheme's answer is read as it came")
    func signedAnswersPassThrough() throws {
        let body = Data(#"{"ips":["192.0.2.1"]}"#.utf8)
        #expect(try Self.aliSign.decryptAnswer(body: body) == body)
        #expect(try Self.volcSign.decryptAnswer(body: body) == body)
    }

    /// printf '1.2.3.4;5.6.7.8,120' | openssl enc -des-ede3 -K <dnspodpa three times> | xxd -p -c 64
    @Test("a decrypted dnspod-des answer reads as dnspod")
    func decryptedAnswerParses() throws {
        let plain = try Self.des.decryptAnswer(body: Data("9f10b8b430b0a10f1732ebd3f2a4fb0f98aaa9182bf154bf".utf8))
        let answer = try parseReply(.dnspod, host: "api.example.com", status: 200, body: plain).get()
        #expect(answer.addresses.map(\.text) == ["1.2.3.4", "5.6.7.8"])
        #expect(answer.ttl == 120)
    }

    @Test("an answer that does not decrypt, in words", arguments: [
        (des, "xyz", "not a dnspod-des answer (byte 1 of the hex, 'x', is not a hex digit): 'xyz' (3 bytes)"),
        (des, "<html>Bad gateway</html>",
         "not a dnspod-des answer (byte 1 of the hex, '<', is not a hex digit): '<html>Bad gateway</html>' (24 bytes)"),
        (des, "87ae 992c", "not a dnspod-des answer (byte 5 of the hex, ' ', is not a hex digit): '87ae 992c' (9 bytes)"),
        (des, "abc", "not a dnspod-des answer (an odd number of hex digits, 3): 'abc' (3 bytes)"),
        (des, "abcd", "not a dnspod-des answer (2 bytes, too short for one 8-byte block): 'abcd' (4 bytes)"),
        (des, "87ae992c1321f299da3c0210",
         "not a dnspod-des answer (12 bytes of ciphertext, not a whole number of 8-byte blocks): '87ae992c1321f299da3c0210' (24 bytes)"),
        (aes, "000102030405060708090a0b0c0d0e0f",
         "not a dnspod-aes answer (16 bytes, too short for an IV and one 16-byte block): '000102030405060708090a0b0c0d0e0f' (32 bytes)"),
        (aes, "000102030405060708090a0b0c0d0e0f38d6de1c8480194edec2947eca9d7fa100",
         "not a dnspod-aes answer (17 bytes of ciphertext, not a whole number of 16-byte blocks): '000102030405060708090a0b0c0d0e0f38d6de1c8480194edec2947eca9d…' (66 bytes)"),
        (HTTPDNSAuth.dnspodDES(key: "otherkey"), "87ae992c1321f299da3c0210a9900ae7",
         "dnspod-des answer does not decrypt with the map's key (bad padding): wrong key? '87ae992c1321f299da3c0210a9900ae7' (32 bytes)"),
    ])
    func answerProblems(_ auth: HTTPDNSAuth, _ body: String, _ message: String) {
        #expect(throws: HTTPDNSProblem(kind: .answer, detail: message)) {
            try auth.decryptAnswer(body: Data(body.utf8))
        }
    }

    @Test("no problem text holds the secret or key")
    func problemsHideTheCredential() {
        let secret = "Zq9xSecretKey"
        let schemes: [HTTPDNSAuth] = [
            .alibabaSign(secret: secret, validFor: .seconds(600)), .volcengineSign(secret: secret, validFor: .seconds(600)),
            .dnspodDES(key: secret), .dnspodAES(key: secret), .dnspodDES(key: "Zq9x"), .dnspodAES(key: secret + secret),
        ]
        let urls = ["\(Self.ali)?x=1", "\(Self.ali)?host=%zz", "\(Self.dnspod)?dn=a.com", "\(Self.dnspod)?ip=%zz"]
        let bodies = ["xyz", "abc", "abcd", "87ae992c1321f299da3c0210", "87ae992c1321f299da3c0210a9900ae7", secret]
        var texts: [String] = []
        for auth in schemes {
            for url in urls {
                do { _ = try auth.authorizedURL(url, now: Date(timeIntervalSince1970: 0)) } catch { texts.append(error.description) }
            }
            for body in bodies {
                do { _ = try auth.decryptAnswer(body: Data(body.utf8)) } catch { texts.append(error.description) }
            }
            texts.append(String(describing: auth))
        }
        #expect(texts.count > 30)
        for text in texts {
            // Apart from a body that happens to hold it, which the service sent, not the runner.
            guard !text.contains("'\(secret)'") else { continue }
            #expect(!text.contains(secret), "\(text)")
            #expect(!text.contains("Zq9x"), "\(text)")
        }
    }

    @Test("the cipher refuses keys it cannot use, and IVs of the wrong length")
    func cipherArguments() {
        #expect(throws: HTTPDNSProblem(kind: .crypto, detail: "dnspod-des: the key is shorter than the 8 bytes DES uses")) {
            try DNSPodCipher(.des, key: "seven77")
        }
        #expect(throws: HTTPDNSProblem(kind: .crypto, detail: "dnspod-aes: the key must have 1 to 16 bytes")) {
            try DNSPodCipher(.aes, key: "seventeen-bytes!!")
        }
        #expect(throws: HTTPDNSProblem(kind: .crypto, detail: "dnspod-aes: an IV of 8 bytes, expected 16")) {
            try DNSPodCipher(.aes, key: "k").encrypt("a", iv: Array(repeating: 0, count: 8))
        }
    }
}
