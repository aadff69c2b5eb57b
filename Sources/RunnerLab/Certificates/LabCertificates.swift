import Foundation
import NIOSSL

/// A certificate ready to present: its name and a TLS server context per ALPN offer.
struct TLSIdentity: Sendable {
    let commonName: String
    /// The leaf, PEM (a test computes its pin from it as a user would, with openssl).
    let certificatePEM: String
    /// The leaf and its key as NIOSSL loaded them (the gRPC servers build their own contexts).
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    private let contexts: [ApplicationProtocols: NIOSSLContext]

    /// Builds server contexts for `issued` (TLS 1.2 and 1.3 unless `policy` limits them), one for each
    /// `ApplicationProtocols` offer, so hosts that share a certificate can still differ in what they negotiate.
    init(_ issued: IssuedCertificate, policy: TLSPolicy = .modern) throws {
        do {
            let certificate = try NIOSSLCertificate(bytes: Array(issued.certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(issued.privateKeyPEM.utf8), format: .pem)
            var contexts: [ApplicationProtocols: NIOSSLContext] = [:]
            for offer in ApplicationProtocols.allCases {
                var configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
                configuration.applicationProtocols = offer.alpnTokens
                if let ciphers = policy.tls12Ciphers {
                    configuration.maximumTLSVersion = .tlsv12
                    configuration.cipherSuites = ciphers
                }
                contexts[offer] = try NIOSSLContext(configuration: configuration)
            }
            self.commonName = issued.commonName
            self.certificatePEM = issued.certificatePEM
            self.certificate = certificate
            self.privateKey = key
            self.contexts = contexts
        } catch {
            throw LabError.certificate(name: issued.commonName, reason: "\(error)")
        }
    }

    /// The context presenting this certificate and offering `protocols` by ALPN.
    func context(offering protocols: ApplicationProtocols) throws -> NIOSSLContext {
        guard let context = contexts[protocols] else {
            throw LabError.certificate(name: commonName, reason: "no TLS context offering \(protocols.alpnTokens)")
        }
        return context
    }
}

/// Every certificate the lab presents, all issued by one throwaway CA at start-up.
struct LabCertificates: Sendable {
    let authority: CertificateAuthority
    /// api.lab.test, single.lab.test, rank.lab.test, fallback.lab.test, localhost and IP
    /// 127.0.0.2: the one-certificate hosts (also on the rank edges).
    let primary: TLSIdentity
    /// sni.lab.test: only presented when the client asks for it by SNI.
    let sni: TLSIdentity
    /// default.lab.test: what the SNI host presents to everyone else.
    let sniDefault: TLSIdentity
    /// expired.lab.test, expired yesterday.
    let expired: TLSIdentity
    /// api.lab.test again under a second key: the stale edge a pin set catches.
    let stale: TLSIdentity
    /// api.lab.test with an RSA key, TLS 1.2 and only AES128-GCM-SHA256 (RSA key exchange, no
    /// forward secrecy): what an iOS app with ATS refuses.
    let noForwardSecrecy: TLSIdentity
    /// api.lab.test, TLS 1.2 only with ECDHE-ECDSA-AES128-GCM-SHA256: what ATS accepts.
    let tls12: TLSIdentity
    /// No name, only the IP address `LabAddress.ipOnly`.
    let ipOnly: TLSIdentity

    static func generate(now: Date = Date()) throws -> LabCertificates {
        let authority = try CertificateAuthority.generate(now: now)
        func identity(_ spec: LeafSpec) throws -> TLSIdentity { try TLSIdentity(authority.issue(spec)) }
        return LabCertificates(
            authority: authority,
            primary: try identity(
                .current(
                    "api.lab.test", dnsNames: ["api.lab.test", "single.lab.test", "rank.lab.test", "fallback.lab.test", "localhost"],
                    ipAddresses: [LabAddress.primary], now: now)),
            sni: try identity(.current("sni.lab.test", now: now)),
            sniDefault: try identity(.current("default.lab.test", now: now)),
            expired: try identity(.expired("expired.lab.test", now: now)),
            stale: try identity(
                .current("api.lab.test", dnsNames: ["api.lab.test", "single.lab.test", "localhost"], now: now)),
            noForwardSecrecy: try TLSIdentity(
                authority.issue(.current("api.lab.test", now: now, keyKind: .rsa2048)),
                policy: TLSPolicy(tls12Ciphers: "AES128-GCM-SHA256")),
            tls12: try TLSIdentity(
                authority.issue(.current("api.lab.test", now: now)),
                policy: TLSPolicy(tls12Ciphers: "ECDHE-ECDSA-AES128-GCM-SHA256")),
            ipOnly: try identity(.current(LabAddress.ipOnly, dnsNames: [], ipAddresses: [LabAddress.ipOnly], now: now)))
    }
}

/// What a server's TLS port negotiates beyond its certificate.
struct TLSPolicy: Sendable {
    /// TLS 1.2 only, with these suites (BoringSSL's names); nil: TLS 1.2 and 1.3 with the defaults.
    var tls12Ciphers: String?

    static let modern = TLSPolicy(tls12Ciphers: nil)
}
