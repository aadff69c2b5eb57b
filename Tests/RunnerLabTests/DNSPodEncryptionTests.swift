import Foundation
import Testing

@testable import RunnerLab

/// The lab's replica of DNSPod D+'s encrypted interface (`alg=des|aes`), checked with the
/// vendor's test vector and, over HTTP, with queries and answers that the `openssl` tool
/// encrypts and decrypts.
@Suite("Lab: DNSPod D+ encrypted interface", .timeLimit(.minutes(3)))
struct DNSPodEncryptionTests {
    /// `http://127.0.0.2:PORT/httpdns/dnspod/d?` + `query`.
    static func url(_ lab: Lab, _ query: String) -> String {
        "http://\(LabAddress.primary):\(lab.httpPort)/httpdns/dnspod/d?\(query)"
    }

    @Test("the lab's DES is DNSPod's: the documented vector")
    func desVector() throws {
        #expect(try DNSPodCipher(.des, key: "dnspodpass").encrypt("www.dnspod.cn") == "87ae992c1321f299da3c0210a9900ae7")
        #expect(try DNSPodCipher(.des, key: "dnspodpass").decrypt("87AE992C1321F299DA3C0210A9900AE7") == "www.dnspod.cn")
    }

    @Test("the openssl tool agrees with the documented vector (the test's own client is right)")
    func toolVector() async throws {
        #expect(try await OpenSSLTool.encrypt("www.dnspod.cn", .des, key: "dnspodpass") == "87ae992c1321f299da3c0210a9900ae7")
    }

    @Test("AES: a fresh IV for every value, hex(IV ‖ ciphertext) the openssl tool decrypts")
    func aesFreshIV() async throws {
        let cipher = try DNSPodCipher(.aes, key: LabDNS.dnspodKey)
        let first = try cipher.encrypt("api.lab.test")
        let second = try cipher.encrypt("api.lab.test")
        #expect(first != second)
        #expect(first.count == 64, "16 bytes of IV and one block: \(first)")
        #expect(try cipher.decrypt(second) == "api.lab.test")
        #expect(try await OpenSSLTool.decrypt(first, .aes, key: LabDNS.dnspodKey) == "api.lab.test")
    }

    @Test("values that are not ciphertext under the key do not decrypt")
    func undecryptable() throws {
        let des = try DNSPodCipher(.des, key: LabDNS.dnspodKey)
        let foreign = try DNSPodCipher(.des, key: "another-key").encrypt("api.lab.test")
        for wire in [foreign, "", "zz", "87ae992c", "87ae992c1321f299d"] {
            #expect(throws: DNSPodCipher.Failure.self, "\(wire)") { try des.decrypt(wire) }
        }
        #expect(throws: DNSPodCipher.Failure.self) { try DNSPodCipher(.aes, key: "seventeen-bytes!!") }
        #expect(throws: DNSPodCipher.Failure.self) { try DNSPodCipher(.des, key: "seven!!") }
    }

    /// A plain query's parameters after `dn=` and the answer text it must decrypt to.
    static let answers: [(rest: String, host: String, plain: String)] = [
        ("&ttl=1", "api.lab.test", "127.0.0.2;127.0.0.5,60"),
        ("", "API.lab.test.", "127.0.0.2;127.0.0.5"),
        ("&type=aaaa&ttl=1", "api.lab.test", "::1,60"),
        ("&type=addrs&ttl=1", "v6only.lab.test", "0-::1,60"),
        ("&ttl=1&clientip=1", "api.lab.test", "127.0.0.2;127.0.0.5,60|127.0.0.1"),
        ("&ttl=1", "api.lab.test,nowhere.lab.test", "api.lab.test.:127.0.0.2;127.0.0.5,60\nnowhere.lab.test.:0"),
    ]

    @Test("encrypted queries get the ordinary DNSPod text, encrypted the same way", arguments: OpenSSLTool.Algorithm.allCases)
    func answersEncrypted(_ algorithm: OpenSSLTool.Algorithm) async throws {
        let lab = try await StatelessLab.get()
        for (rest, host, plain) in Self.answers {
            let dn = try await OpenSSLTool.encrypt(host, algorithm, key: LabDNS.dnspodKey)
            let ip = try await OpenSSLTool.encrypt("198.51.100.7", algorithm, key: LabDNS.dnspodKey)
            let result = try await Command.curl([
                "--dump-header", "/dev/stderr",
                Self.url(lab, "dn=\(dn)&id=12345&alg=\(algorithm.rawValue)&ip=\(ip)\(rest)"),
            ])
            #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(result.errorOutput)")
            #expect(result.text.allSatisfy(\.isHexDigit) && result.text == result.text.lowercased(), "\(result.text)")
            #expect(try await OpenSSLTool.decrypt(result.text, algorithm, key: LabDNS.dnspodKey) == plain, "\(host)\(rest)")
        }
    }

    @Test("AES answers use a fresh IV each time")
    func aesAnswersDiffer() async throws {
        let lab = try await StatelessLab.get()
        let dn = try await OpenSSLTool.encrypt("api.lab.test", .aes, key: LabDNS.dnspodKey)
        let first = try await Command.curl([Self.url(lab, "dn=\(dn)&alg=aes&id=1")])
        let second = try await Command.curl([Self.url(lab, "dn=\(dn)&alg=aes&id=1")])
        #expect(first.text != second.text)
        #expect(try await OpenSSLTool.decrypt(second.text, .aes, key: LabDNS.dnspodKey) == "127.0.0.2;127.0.0.5")
    }

    @Test("the wrong key: 200 with an empty body, and no lookup counted", arguments: OpenSSLTool.Algorithm.allCases)
    func wrongKey(_ algorithm: OpenSSLTool.Algorithm) async throws {
        try await withLab { lab in
            let dn = try await OpenSSLTool.encrypt("api.lab.test", algorithm, key: "not-the-lab-key")
            let good = try await OpenSSLTool.encrypt("api.lab.test", algorithm, key: LabDNS.dnspodKey)
            let wrongIP = try await OpenSSLTool.encrypt("198.51.100.7", algorithm, key: "not-the-lab-key")
            for query in [
                "dn=\(dn)&alg=\(algorithm.rawValue)&ttl=1",
                // A right dn with an ip under another key is the wrong key all the same.
                "dn=\(good)&alg=\(algorithm.rawValue)&ip=\(wrongIP)",
                // A dn sent in clear to the encrypted interface.
                "dn=api.lab.test&alg=\(algorithm.rawValue)",
            ] {
                let result = try await Command.curl(["--dump-header", "/dev/stderr", Self.url(lab, query)])
                #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(result.errorOutput)")
                #expect(result.text.isEmpty, "\(query): \(result.text)")
            }
            #expect(lab.httpdnsLookups(host: "api.lab.test") == 0)
            #expect(lab.requestsReceived(path: "/httpdns/dnspod/d") == 3)
        }
    }

    @Test("no answer stays an empty body; fault hosts misbehave in clear; lookups count the decrypted name")
    func emptyAndFaults() async throws {
        try await withLab { lab in
            func lookup(_ host: String, _ algorithm: OpenSSLTool.Algorithm) async throws -> CommandResult {
                let dn = try await OpenSSLTool.encrypt(host, algorithm, key: LabDNS.dnspodKey)
                return try await Command.curl(
                    ["--dump-header", "/dev/stderr", Self.url(lab, "dn=\(dn)&alg=\(algorithm.rawValue)&ttl=1")])
            }
            for algorithm in OpenSSLTool.Algorithm.allCases {
                for host in ["nowhere.lab.test", "empty.lab.test", "sni.lab.test"] {
                    let result = try await lookup(host, algorithm)
                    #expect(result.errorOutput.hasPrefix("HTTP/1.1 200 "), "\(result.errorOutput)")
                    if host == "sni.lab.test" {
                        #expect(try await OpenSSLTool.decrypt(result.text, algorithm, key: LabDNS.dnspodKey) == "127.0.0.3,60")
                    } else {
                        #expect(result.text.isEmpty, "\(host): \(result.text)")
                    }
                }
                let garbage = try await lookup("garbage.lab.test", algorithm)
                #expect(garbage.text == LabDNS.garbagePage)
                let error = try await lookup("error.lab.test", algorithm)
                #expect(error.errorOutput.hasPrefix("HTTP/1.1 500 "), "\(error.errorOutput)")
                #expect(error.text == LabDNS.serverErrorText)
            }
            #expect(lab.httpdnsLookups(format: .dnspod, host: "sni.lab.test") == 2)
            #expect(lab.httpdnsLookups(format: .dnspod, host: "garbage.lab.test") == 2)
            #expect(lab.httpdnsLookups(host: "nowhere.lab.test") == 2)
        }
    }

    @Test("an alg the service does not know is a 400")
    func unknownAlgorithm() async throws {
        let lab = try await StatelessLab.get()
        let result = try await Command.curl(["--dump-header", "/dev/stderr", Self.url(lab, "dn=00&alg=rc4")])
        #expect(result.errorOutput.hasPrefix("HTTP/1.1 400 "), "\(result.errorOutput)")
    }
}
