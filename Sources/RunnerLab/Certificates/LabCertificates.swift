import Foundation
import NIOSSL

/// A certificate ready to present: its name and the TLS server context that serves it.
struct TLSIdentity: Sendable {
    let commonName: String
    let context: NIOSSLContext

    /// Builds a TLS 1.2+ server context for `issued` that negotiates ALPN "http/1.1".
    init(_ issued: IssuedCertificate) throws {
        do {
            let certificate = try NIOSSLCertificate(bytes: Array(issued.certificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(issued.privateKeyPEM.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
            configuration.applicationProtocols = ["http/1.1"]
            self.commonName = issued.commonName
            self.context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw LabError.certificate(name: issued.commonName, reason: "\(error)")
        }
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
