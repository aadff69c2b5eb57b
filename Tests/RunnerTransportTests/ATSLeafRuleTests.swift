import Foundation
import PlanFixtures
import RunnerTransport
import RunnerVocabulary
import Testing

/// The iOS ATS profile's leaf rules, on certificates the openssl command line makes here — a
/// SHA-1 signature, an RSA 1024 key — read the way the runner reads a live chain.
@Suite("ATS leaf rules", .timeLimit(.minutes(1)))
struct ATSLeafRuleTests {
    /// A self-signed certificate from `openssl req`, read as a chain entry.
    static func certificate(_ arguments: [String]) throws -> ChainCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let der = directory.appendingPathComponent("cert.der").path
        let output = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["req", "-x509", "-nodes", "-subj", "/CN=leaf.example", "-days", "1", "-keyout", directory.appendingPathComponent("key.pem").path,
             "-outform", "DER", "-out", der] + arguments,
            deadline: .seconds(30))
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: der)))
        return try #require(ChainCertificate.fromDER(bytes))
    }

    @Test func aSHA1SignatureAndAn1024BitRSAKeyBreakBothRules() throws {
        let leaf = try Self.certificate(["-sha1", "-newkey", "rsa:1024"])
        #expect(leaf.keyType == "RSA" && leaf.keyBits == 1024)
        #expect(leaf.signature == "sha1WithRSAEncryption" && leaf.signatureDigest == "SHA1")
        let broken = TLSProfile.iosATS.brokenLeafRules(leaf)
        #expect(broken.map(\.expected) == [
            "a leaf signed with SHA-256 or stronger", "an RSA key of at least 2048 bits or an EC key of at least 256 bits",
        ])
        #expect(broken.map(\.actual) == ["signed with sha1WithRSAEncryption", "RSA 1024"])
    }

    /// The pin the transport reads with the certificate (OpenSSL's base64) is the one made from
    /// its digest (Foundation's), for keys of every shape.
    @Test func thePinReadWithTheCertificateIsItsDigestAsText() throws {
        for arguments in [["-newkey", "rsa:2048"], ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"], ["-newkey", "ed25519"]] {
            let certificate = try Self.certificate(arguments)
            #expect(certificate.pin == ChainCertificate.pinText(certificate.spkiSHA256), "\(arguments)")
            #expect(certificate.pin.hasPrefix("sha256/") && certificate.pin.utf8.count == 51, "\(certificate.pin)")
        }
    }

    @Test func rsa2048WithSHA256AndP256AreAccepted() throws {
        let rsa = try Self.certificate(["-sha256", "-newkey", "rsa:2048"])
        #expect(rsa.signature == "sha256WithRSAEncryption")
        #expect(TLSProfile.iosATS.brokenLeafRules(rsa).isEmpty)
        let ec = try Self.certificate(["-sha384", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        #expect(ec.keyType == "EC" && ec.keyBits == 256 && ec.signature == "ecdsa-with-SHA384")
        #expect(TLSProfile.iosATS.brokenLeafRules(ec).isEmpty)
    }

    /// An EC key under 256 bits (P-224) is refused; Ed25519, which ATS does not list, too.
    @Test func smallECAndOtherKeysAreRefused() throws {
        let small = try Self.certificate(["-sha256", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-224"])
        #expect(TLSProfile.iosATS.brokenLeafRules(small).map(\.actual) == ["EC 224"])
        let edwards = try Self.certificate(["-newkey", "ed25519"])
        #expect(edwards.keyType == "Ed25519" && edwards.signatureDigest.isEmpty)
        #expect(TLSProfile.iosATS.brokenLeafRules(edwards).map(\.actual) == ["Ed25519 256"])
    }

    /// The pin is the SHA-256 of the SubjectPublicKeyInfo, as the openssl command line computes it.
    @Test func thePinIsOpenSSLsSPKIDigest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let der = directory.appendingPathComponent("c.der").path
        let made = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "openssl req -x509 -nodes -subj /CN=p -days 1 -newkey rsa:2048 -keyout \"$1/k.pem\" -outform DER -out \"$2\" 2>/dev/null && openssl x509 -inform DER -in \"$2\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
             "pin", directory.path, der],
            deadline: .seconds(30))
        let expected = "sha256/" + String(decoding: made.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let leaf = try #require(ChainCertificate.fromDER(try [UInt8](Data(contentsOf: URL(fileURLWithPath: der)))))
        #expect(leaf.pin == expected)
        #expect(leaf.subject == "CN=p")
    }
}
