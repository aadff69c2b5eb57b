import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// Alibaba Cloud EMAS `/v2/d`: the signature against the vectors of httpdns-apis.md (computed
/// with `openssl dgst -sha256 -mac HMAC -macopt hexkey:…`), the URL sent for a fixed now in each
/// mode, the answers read, and encrypted answers opened.
@Suite("HTTPDNS alibaba-v2")
struct HTTPDNSAlibabaV2Tests {
    static let secret = "00112233445566778899aabbccddeeff"
    static let key = "0123456789abcdef0123456789abcdef"
    static let endpoint = "https://203.107.1.1/v2/d"
    /// 1534316400 - 600: the vectors' exp with the default valid_for.
    static let now = Date(timeIntervalSince1970: 1_534_315_800)
    static let iv = Array(UInt8(0)...UInt8(15))

    static func auth(_ encryption: HTTPDNSAuth.AlibabaV2Encryption) -> HTTPDNSAuth {
        .alibabaV2(secret: secret, encryption: encryption, validFor: .seconds(600))
    }

    @Test("the signature: HMAC-SHA256 under the hex-decoded secret of the sorted parameters")
    func vectors() throws {
        #expect(try AlibabaV2Sign.signature("dn=www.aliyun.com&exp=1534316400&id=139450&m=0&q=4,6&v=1.0", secret: Self.secret)
            == "2ba571048a5b8f9c81e5ef9aecc5da674e2da11b4350d90132382e0066885295")
        #expect(try AlibabaV2Sign.signature("cip=120.196.0.1&dn=www.aliyun.com&exp=1534316400&id=139450&m=0&v=1.0", secret: Self.secret)
            == "20900a6da5005639da2bbebaffcf13e9eaf6fd56f6c1ed45e2120f20287bd5c9")
        // What is signed: present, non-empty, among the signed names (and sdns-*), sorted by name.
        #expect(AlibabaV2Sign.signedText([
            ("v", "1.0"), ("id", "139450"), ("tags", ""), ("sdns-a", "1"), ("s", "x"), ("other", "y"), ("dn", "h"),
        ]) == "dn=h&id=139450&sdns-a=1&v=1.0")
    }

    @Test("the URL sent in clear, from the format's query: q from ip_version, v, then m, exp and s")
    func urlInClear() throws {
        let query = try #require(AlibabaV2Format().queries(
            template: "\(Self.endpoint)?id=139450&dn={host}", host: "www.aliyun.com", ipVersion: .any).first)
        #expect(query.url == "\(Self.endpoint)?id=139450&dn=www.aliyun.com&q=4%2C6&v=1.0")
        #expect(query.family == nil)
        #expect(try Self.auth(.none).authorizedURL(query.url, now: Self.now) { _ in [] }
            == "\(Self.endpoint)?id=139450&dn=www.aliyun.com&q=4%2C6&v=1.0&m=0&exp=1534316400"
                + "&s=2ba571048a5b8f9c81e5ef9aecc5da674e2da11b4350d90132382e0066885295")
        // A client's address as cip, signed with the rest.
        let asClient = try Self.auth(.none).authorizedURL("\(Self.endpoint)?id=139450&dn=www.aliyun.com&cip=120.196.0.1&v=1.0", now: Self.now) { _ in [] }
        #expect(asClient.hasSuffix("&m=0&exp=1534316400&s=20900a6da5005639da2bbebaffcf13e9eaf6fd56f6c1ed45e2120f20287bd5c9"), "\(asClient)")
        let client = ClientPopulation(
            name: "gd-mobile", address: try #require(IPAddress("120.196.0.1")),
            subnet: try IPSubnet.parse("120.196.0.0/24").get(), labels: [])
        let v6 = try #require(HTTPDNSSpec.Format.alibabaV2.wire(askingAs: client).queries(
            template: "\(Self.endpoint)?id=139450&dn={host}", host: "www.aliyun.com", ipVersion: .v6).first)
        #expect(v6.url == "\(Self.endpoint)?id=139450&dn=www.aliyun.com&q=6&cip=120.196.0.1&v=1.0" && v6.family == .v6)
    }

    @Test("encrypted, the names travel in enc (hex of IV and ciphertext), and the signature covers enc", arguments: [
        HTTPDNSAuth.AlibabaV2Encryption.aesCBC(key: key), .aesGCM(key: key),
    ])
    func urlEncrypted(_ encryption: HTTPDNSAuth.AlibabaV2Encryption) throws {
        let url = "\(Self.endpoint)?id=139450&dn=www.aliyun.com&q=4%2C6&cip=120.196.0.1&v=1.0"
        let sent = try Self.auth(encryption).authorizedURL(url, now: Self.now) { Array(Self.iv.prefix($0)) }
        let query = HTTPDNSQueryParameters(url: sent)
        #expect(query.names == ["id", "v", "m", "exp", "enc", "s"], "\(sent)")
        let mode = encryption == .aesCBC(key: Self.key) ? "1" : "2"
        #expect(try query.value("m") == mode)
        let enc = try #require(try query.value("enc"))
        guard case .bytes(let sealed) = Hex.decode(Array(enc.utf8)) else {
            Issue.record("enc is not hex: \(enc)")
            return
        }
        let ivLength = mode == "1" ? 16 : 12
        #expect(Array(sealed.prefix(ivLength)) == Array(Self.iv.prefix(ivLength)))
        guard case .bytes(let aesKey) = Hex.decode(Array(Self.key.utf8)) else { return }
        let plaintext = mode == "1"
            ? try OpenSSLCrypto.decrypt(.aes128CBC, key: aesKey, iv: Array(Self.iv), Array(sealed.dropFirst(16)))
            : try OpenSSLCrypto.openAES128GCM(key: aesKey, iv: Array(Self.iv.prefix(12)), Array(sealed.dropFirst(12)))
        #expect(String(decoding: plaintext, as: UTF8.self) == #"{"cip":"120.196.0.1","dn":"www.aliyun.com","q":"4,6"}"#)
        let signed = "enc=\(enc)&exp=1534316400&id=139450&m=\(mode)&v=1.0"
        #expect(try query.value("s") == AlibabaV2Sign.signature(signed, secret: Self.secret))
    }

    @Test("a query without id or dn cannot be signed")
    func queryProblems() {
        for (url, missing) in [("\(Self.endpoint)?dn=a.example", "id"), ("\(Self.endpoint)?id=1&dn=", "dn")] {
            #expect(throws: HTTPDNSProblem(kind: .query, detail: "alibaba-v2 signs the '\(missing)' parameter, and the URL has none")) {
                try Self.auth(.none).authorizedURL(url, now: Self.now)
            }
        }
    }

    static let plainData = #"{"answers":[{"dn":"api.example.com","v4":{"ips":["1.1.1.1","2.2.2.2"],"ttl":60},"v6":{"ips":["240e::1"],"ttl":30}}]}"#

    static let answerCases: [HTTPDNSCase] = [
        HTTPDNSCase(
            "both families, the smaller TTL", #"{"code":"success","mode":"0","data":\#(plainData)}"#,
            .ok(["1.1.1.1", "2.2.2.2", "240e::1"], ttl: 30)),
        HTTPDNSCase(
            "data as a string holding the object",
            #"{"code":"success","mode":"0","data":"{\"answers\":[{\"dn\":\"api.example.com\",\"v4\":{\"ips\":[\"1.2.3.4\"],\"ttl\":20}}]}"}"#,
            .ok(["1.2.3.4"], ttl: 20)),
        HTTPDNSCase(
            "the answer for the host among others, name in another case",
            #"{"code":"success","mode":"0","data":{"answers":[{"dn":"other.example.com","v4":{"ips":["9.9.9.9"]}},{"dn":"API.example.com.","v4":{"ips":["1.2.3.4"],"ttl":5}}]}}"#,
            .ok(["1.2.3.4"], ttl: 5)),
        HTTPDNSCase(
            "no address, with the service's reason",
            #"{"code":"success","mode":"0","data":{"answers":[{"dn":"api.example.com","v4":{"ips":[],"ttl":60,"no_ip_code":"DomainNotFound"}}]}}"#,
            .noAnswer("no answer (no 'ips' for either family) (v4 no_ip_code DomainNotFound)")),
        // The vendors' samples: plain mode with no `mode` key (the Node SDK), `mode` as a number,
        // and `data.cip`, the client the service saw.
        HTTPDNSCase(
            "plain, no mode key", #"{"code":"success","data":{"answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3.4"],"ttl":20}}]}}"#,
            .ok(["1.2.3.4"], ttl: 20)),
        HTTPDNSCase(
            "plain, no mode key, data a string",
            #"{"code":"success","data":"{\"answers\":[{\"dn\":\"api.example.com\",\"v4\":{\"ips\":[\"1.2.3.4\"]}}]}"}"#,
            .ok(["1.2.3.4"])),
        HTTPDNSCase(
            "mode a number", #"{"code":"success","mode":0,"data":{"answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3.4"],"ttl":20}}]}}"#,
            .ok(["1.2.3.4"], ttl: 20)),
        HTTPDNSCase(
            "data.cip kept as the client",
            #"{"code":"success","mode":"0","data":{"cip":"120.196.0.1","answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3.4"],"ttl":20}}]}}"#,
            .ok(["1.2.3.4"], ttl: 20, client: "120.196.0.1")),
        HTTPDNSCase(
            "data.cip not an address is left out",
            #"{"code":"success","mode":0,"data":{"cip":7,"answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3.4"]}}]}}"#,
            .ok(["1.2.3.4"])),
        HTTPDNSCase(
            "still encrypted, mode a number", #"{"code":"success","mode":1,"data":"q83vASNFZ4mrze8B"}"#,
            .garbage(#"not an Alibaba /v2/d answer ('data' is encrypted (mode 1) and the map's auth does not encrypt): '{"code":"success","mode":1,"data":"q83vASNFZ4mrze8B"}' (53 bytes)"#)),
        HTTPDNSCase("the service's error", status: 403, #"{"code":"InvalidSignature"}"#, .serviceError("InvalidSignature (HTTP 403)")),
        HTTPDNSCase("an error code with 200", #"{"code":"SignatureExpired","mode":"0"}"#, .serviceError("SignatureExpired (HTTP 200)")),
        HTTPDNSCase("HTTP 502", status: 502, "bad gateway", .serviceError("HTTP 502: 'bad gateway' (11 bytes)")),
        HTTPDNSCase(
            "still encrypted", #"{"code":"success","mode":"2","data":"q83vASNFZ4mrze8B"}"#,
            .garbage(#"not an Alibaba /v2/d answer ('data' is encrypted (mode 2) and the map's auth does not encrypt): '{"code":"success","mode":"2","data":"q83vASNFZ4mrze8B"}' (55 bytes)"#)),
        HTTPDNSCase(
            "another host only", #"{"code":"success","mode":"0","data":{"answers":[{"dn":"other.example.com","v4":{"ips":["9.9.9.9"]}}]}}"#,
            .garbage(#"not an Alibaba /v2/d answer (answers for 'other.example.com', not 'api.example.com'): '{"code":"success","mode":"0","data":{"answers":[{"dn":"other…' (102 bytes)"#)),
        HTTPDNSCase(
            "an address that is not one", #"{"code":"success","data":{"answers":[{"dn":"api.example.com","v4":{"ips":["1.2.3"]}}]}}"#,
            .garbage(#"not an Alibaba /v2/d answer (bad IP address '1.2.3' in 'v4.ips'): '{"code":"success","data":{"answers":[{"dn":"api.example.com"…' (87 bytes)"#)),
        HTTPDNSCase("not JSON", "<html>", .garbage("not an Alibaba /v2/d answer: '<html>' (6 bytes)")),
    ]

    @Test("answers, no answers, service errors and malformed bodies", arguments: answerCases)
    func parses(_ testCase: HTTPDNSCase) {
        #expect(testCase.run(.alibabaV2) == testCase.expected)
    }

    @Test("a query for one family keeps that family")
    func familyAsked() throws {
        let body = Data(#"{"code":"success","mode":"0","data":\#(Self.plainData)}"#.utf8)
        let query = HTTPDNSQuery(url: "http://x/v2/d", family: .v6)
        let answer = try AlibabaV2Format().answer(to: query, host: "api.example.com", reply: HTTPDNSReply(status: 200, body: body))
        #expect(answer.addresses.map(\.text) == ["240e::1"] && answer.ttl == 30)
    }

    /// `data` sealed as the service seals it: base64 of IV and ciphertext (GCM's tag last).
    static func sealed(_ mode: String, key: String = key) throws -> Data {
        guard case .bytes(let aesKey) = Hex.decode(Array(key.utf8)) else { return Data() }
        let data = Array(plainData.utf8)
        let wire = mode == "1"
            ? iv + (try OpenSSLCrypto.encrypt(.aes128CBC, key: aesKey, iv: iv, data))
            : Array(iv.prefix(12)) + (try OpenSSLCrypto.sealAES128GCM(key: aesKey, iv: Array(iv.prefix(12)), data))
        return Data(#"{"code":"success","mode":"\#(mode)","data":"\#(Data(wire).base64EncodedString())"}"#.utf8)
    }

    @Test("an encrypted answer's data is opened with the map's key, then read", arguments: ["1", "2"])
    func opensAnswers(_ mode: String) throws {
        let auth = Self.auth(mode == "1" ? .aesCBC(key: Self.key) : .aesGCM(key: Self.key))
        let opened = try auth.decryptAnswer(body: try Self.sealed(mode))
        let answer = try AlibabaV2Format().answer(
            to: HTTPDNSQuery(url: "http://x/v2/d"), host: "api.example.com", reply: HTTPDNSReply(status: 200, body: opened))
        #expect(answer.addresses.map(\.text) == ["1.1.1.1", "2.2.2.2", "240e::1"])
        // An error, or an answer in clear, is read as it came.
        let error = Data(#"{"code":"InvalidSignature"}"#.utf8)
        #expect(try auth.decryptAnswer(body: error) == error)
    }

    @Test("an encrypted answer whose mode is a number opens the same", arguments: ["1", "2"])
    func opensNumericMode(_ mode: String) throws {
        let auth = Self.auth(mode == "1" ? .aesCBC(key: Self.key) : .aesGCM(key: Self.key))
        let sealed = String(decoding: try Self.sealed(mode), as: UTF8.self)
            .replacingOccurrences(of: #""mode":"\#(mode)""#, with: #""mode":\#(mode)"#)
        #expect(sealed.contains(#""mode":\#(mode),"#))
        let opened = try auth.decryptAnswer(body: Data(sealed.utf8))
        let answer = try AlibabaV2Format().answer(
            to: HTTPDNSQuery(url: "http://x/v2/d"), host: "api.example.com", reply: HTTPDNSReply(status: 200, body: opened))
        #expect(answer.addresses.map(\.text) == ["1.1.1.1", "2.2.2.2", "240e::1"] && answer.ttl == 30)
    }

    @Test("an answer that does not open, in words")
    func answerProblems() throws {
        let other = "ffeeddccbbaa99887766554433221100"
        let cases: [(HTTPDNSAuth, Data, String)] = [
            (Self.auth(.aesGCM(key: Self.key)), try Self.sealed("2", key: other),
             "alibaba-v2: does not decrypt (the GCM tag does not match: another key?)"),
            (Self.auth(.aesCBC(key: Self.key)), try Self.sealed("1", key: other), "alibaba-v2: does not decrypt (bad padding)"),
            (Self.auth(.none), try Self.sealed("2"), "alibaba-v2: the answer's data is encrypted (mode 2) and the map's auth has no key"),
            (Self.auth(.aesGCM(key: Self.key)), Data(#"{"code":"success","mode":"2","data":"***"}"#.utf8),
             "alibaba-v2: the answer's data (mode 2) is not base64"),
            (Self.auth(.aesGCM(key: Self.key)), Data(#"{"code":"success","mode":"2","data":"AAEC"}"#.utf8),
             "alibaba-v2: the answer's data (mode 2) is 3 bytes, too short for IV and ciphertext"),
        ]
        for (auth, body, message) in cases {
            #expect(throws: HTTPDNSProblem(kind: .answer, detail: message)) { try auth.decryptAnswer(body: body) }
            #expect(!message.contains(Self.key) && !message.contains(Self.secret))
        }
    }
}
