import Foundation
import RunnerLab
import Testing

/// One TLS connection attempt: where to, with which SNI, and what the lab must present.
struct CertificateCase: CustomTestStringConvertible, Sendable {
    let address: String
    /// `nil`: connect to the IP URL, so curl sends no SNI.
    let serverName: String?
    let presented: String
    /// Whether curl, trusting the lab CA, accepts the handshake for the name it connects with.
    let verifies: Bool

    var testDescription: String { "\(address) SNI \(serverName ?? "none") → \(presented)" }

    static let all: [CertificateCase] = [
        .init(address: LabAddress.primary, serverName: "api.lab.test", presented: "api.lab.test", verifies: true),
        .init(address: LabAddress.primary, serverName: nil, presented: "api.lab.test", verifies: true),
        .init(address: LabAddress.primary, serverName: "other.test", presented: "api.lab.test", verifies: false),
        .init(address: LabAddress.replica, serverName: "single.lab.test", presented: "api.lab.test", verifies: true),
        .init(address: LabAddress.ipv6, serverName: "api.lab.test", presented: "api.lab.test", verifies: true),
        .init(address: LabAddress.sniOnly, serverName: "sni.lab.test", presented: "sni.lab.test", verifies: true),
        .init(address: LabAddress.sniOnly, serverName: "SNI.Lab.Test", presented: "sni.lab.test", verifies: true),
        .init(address: LabAddress.sniOnly, serverName: nil, presented: "default.lab.test", verifies: false),
        .init(
            address: LabAddress.sniOnly, serverName: "default.lab.test", presented: "default.lab.test",
            verifies: true),
        .init(
            address: LabAddress.expired, serverName: "expired.lab.test", presented: "expired.lab.test",
            verifies: false),
    ]

    /// curl arguments reaching `/echo` at this case's address, with or without SNI.
    func target(port: Int) -> [String] {
        guard let serverName else { return ["https://\(authority(address, port))/echo"] }
        return [
            "--connect-to", "\(serverName):\(port):\(authority(address, port))", "https://\(serverName):\(port)/echo",
        ]
    }
}

@Suite(.timeLimit(.minutes(3))) struct CertificateSelectionTests {
    @Test(arguments: CertificateCase.all)
    func presentsTheCertificateForAddressAndSNI(_ certificateCase: CertificateCase) async throws {
        try await withLab { lab in
        // Without verification: which certificate came back, and what SNI the lab saw.
        let target = certificateCase.target(port: lab.httpsPort)
        let insecure = try await Command.curl(["--insecure", "--verbose"] + target)
        #expect(insecure.exitCode == 0, "\(insecure.errorOutput)")
        let subject = insecure.errorOutput.split(separator: "\n").first { $0.contains("subject:") }
        #expect(subject?.hasSuffix("CN=\(certificateCase.presented)") == true, "\(subject ?? "no subject line")")
        let echo = try insecure.jsonObject()
        // curl lower-cases the name it sends.
            #expect(echo["sni"] as? String == certificateCase.serverName?.lowercased())
        #expect(echo["tls"] as? Bool == true)
        #expect(echo["local_address"] as? String == certificateCase.address)

        // With the lab CA: does a real client accept it for the name it asked for?
        let verified = try await Command.curl(["--cacert", lab.caFile] + target)
        #expect(verified.exitCode == (certificateCase.verifies ? 0 : 60), "\(verified.errorOutput)")
        if certificateCase.address == LabAddress.expired {
            #expect(verified.errorOutput.contains("certificate has expired"))
        }
        }
    }
}
