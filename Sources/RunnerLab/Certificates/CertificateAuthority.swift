import Crypto
import Foundation
import X509
import _CryptoExtras

/// A throwaway certificate authority ("runner lab CA") that lives as long as one lab.
///
/// Keys are P-256 so generating a fresh CA and its leaves at every start-up costs milliseconds.
struct CertificateAuthority: Sendable {
    static let commonName = "runner lab CA"

    let certificate: Certificate
    let privateKey: P256.Signing.PrivateKey
    /// The CA certificate in PEM form, what clients pass as `--cacert`.
    let pem: String

    /// Creates a self-signed CA valid well around `now`, so even the expired leaf chains to it.
    static func generate(now: Date) throws -> CertificateAuthority {
        do {
            let key = P256.Signing.PrivateKey()
            let publicKey = Certificate.PublicKey(key.publicKey)
            let name = try DistinguishedName {
                OrganizationName("runner lab")
                CommonName(commonName)
            }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: publicKey,
                notValidBefore: now.addingTimeInterval(-60 * day),
                notValidAfter: now.addingTimeInterval(365 * day),
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: publicKey)
                },
                issuerPrivateKey: Certificate.PrivateKey(key))
            return CertificateAuthority(
                certificate: certificate, privateKey: key, pem: try certificate.serializeAsPEM().pemString)
        } catch {
            throw LabError.certificate(name: commonName, reason: "\(error)")
        }
    }

    /// Signs a server certificate for `spec` with a fresh key of its kind (P-256, or RSA 2048 for a
    /// server that must offer RSA key exchange).
    func issue(_ spec: LeafSpec) throws -> IssuedCertificate {
        do {
            let publicKey: Certificate.PublicKey
            let privateKeyPEM: String
            switch spec.keyKind {
            case .p256:
                let key = P256.Signing.PrivateKey()
                publicKey = Certificate.PublicKey(key.publicKey)
                privateKeyPEM = key.pemRepresentation
            case .rsa2048:
                let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
                publicKey = Certificate.PublicKey(key.publicKey)
                privateKeyPEM = key.pemRepresentation
            }
            let subject = try DistinguishedName {
                OrganizationName("runner lab")
                CommonName(spec.commonName)
            }
            let names: [GeneralName] =
                spec.dnsNames.map { .dnsName($0) }
                + (try spec.ipAddresses.map { .ipAddress(.init(contentBytes: try Self.ipv4Bytes($0)[...])) })
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: publicKey,
                notValidBefore: spec.notValidBefore,
                notValidAfter: spec.notValidAfter,
                issuer: self.certificate.subject,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                    SubjectKeyIdentifier(hash: publicKey)
                    // Strict verifiers (OpenSSL's X509_STRICT, Python 3.13) insist on the AKI.
                    AuthorityKeyIdentifier(keyIdentifier: try self.subjectKeyIdentifier())
                },
                issuerPrivateKey: Certificate.PrivateKey(self.privateKey))
            return IssuedCertificate(
                commonName: spec.commonName,
                certificatePEM: try certificate.serializeAsPEM().pemString,
                privateKeyPEM: privateKeyPEM)
        } catch let error as LabError {
            throw error
        } catch {
            throw LabError.certificate(name: spec.commonName, reason: "\(error)")
        }
    }

    private func subjectKeyIdentifier() throws -> ArraySlice<UInt8> {
        guard let ski = try certificate.extensions.subjectKeyIdentifier else {
            throw LabError.certificate(name: Self.commonName, reason: "the CA has no subject key identifier")
        }
        return ski.keyIdentifier
    }

    /// The four octets of a dotted-quad address, the form an iPAddress SAN takes.
    static func ipv4Bytes(_ address: String) throws -> [UInt8] {
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { UInt8($0) }
        guard parts.count == 4, octets.count == 4 else {
            throw LabError.certificate(name: address, reason: "only IPv4 SANs are supported, got \"\(address)\"")
        }
        return octets
    }

    static let day: TimeInterval = 24 * 60 * 60
}

/// What a leaf certificate says: its names and its validity window.
struct LeafSpec: Sendable {
    /// The leaf's key.
    enum KeyKind: Sendable {
        case p256
        case rsa2048
    }

    let commonName: String
    let dnsNames: [String]
    let ipAddresses: [String]
    let notValidBefore: Date
    let notValidAfter: Date
    var keyKind: KeyKind = .p256

    /// A leaf valid from an hour ago (tolerates clock skew) for 90 days.
    static func current(
        _ commonName: String, dnsNames: [String]? = nil, ipAddresses: [String] = [], now: Date, keyKind: KeyKind = .p256
    ) -> LeafSpec {
        LeafSpec(
            commonName: commonName, dnsNames: dnsNames ?? [commonName], ipAddresses: ipAddresses,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(90 * CertificateAuthority.day), keyKind: keyKind)
    }

    /// A leaf that was valid from 30 days ago until yesterday.
    static func expired(_ commonName: String, now: Date) -> LeafSpec {
        LeafSpec(
            commonName: commonName, dnsNames: [commonName], ipAddresses: [],
            notValidBefore: now.addingTimeInterval(-30 * CertificateAuthority.day),
            notValidAfter: now.addingTimeInterval(-CertificateAuthority.day))
    }
}

/// A signed leaf and its key, in PEM.
struct IssuedCertificate: Sendable {
    let commonName: String
    let certificatePEM: String
    let privateKeyPEM: String
}
