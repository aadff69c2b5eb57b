import Foundation
import NIOSSL

/// A certificate ready to present: its name and a TLS server context per ALPN offer.
struct TLSIdentity: Sendable {
    let commonName: String
    private let contexts: [ApplicationProtocols: NIOSSLContext]

    /// Builds TLS 1.2+ server contexts for `issued`, one for each `ApplicationProtocols` offer, so hosts
    /// that share a certificate can still differ in what they negotiate.
    init(_ issued: IssuedCertificate) throws {
        do {
            let certificate = try NIOSSLCertificate(bytes: Array(issued.certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(issued.privateKeyPEM.utf8), format: .pem)
            var contexts: [ApplicationProtocols: NIOSSLContext] = [:]
            for offer in ApplicationProtocols.allCases {
                var configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
                configuration.applicationProtocols = offer.alpnTokens
                contexts[offer] = try NIOSSLContext(configuration: configuration)
            }
            self.commonName = issued.commonName
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
    /// api.lab.test, single.lab.test, localhost and IP 127.0.0.2: the one-certificate hosts.
    let primary: TLSIdentity
    /// sni.lab.test: only presented when the client asks for it by SNI.
    let sni: TLSIdentity
    /// default.lab.test: what the SNI host presents to everyone else.
    let sniDefault: TLSIdentity
    /// expired.lab.test, expired yesterday.
    let expired: TLSIdentity

    static func generate(now: Date = Date()) throws -> LabCertificates {
        let authority = try CertificateAuthority.generate(now: now)
        func identity(_ spec: LeafSpec) throws -> TLSIdentity { try TLSIdentity(authority.issue(spec)) }
        return LabCertificates(
            authority: authority,
            primary: try identity(
                .current(
                    "api.lab.test", dnsNames: ["api.lab.test", "single.lab.test", "localhost"],
                    ipAddresses: [LabAddress.primary], now: now)),
            sni: try identity(.current("sni.lab.test", now: now)),
            sniDefault: try identity(.current("default.lab.test", now: now)),
            expired: try identity(.expired("expired.lab.test", now: now)))
    }
}
