extension DNSPodEndpoint {
    /// The parameters that the enterprise interface encrypts; every other one travels in clear.
    static let encryptedParameters: Set<String> = ["dn", "ip"]

    /// The cipher `alg=` asks for under `LabDNS.dnspodKey`, nil without `alg` (the plain interface).
    static func cipher(_ alg: String?) throws(HTTPDNSBadQuery) -> DNSPodCipher? {
        guard let alg else { return nil }
        guard let algorithm = DNSPodCipher.Algorithm(rawValue: alg.lowercased()) else {
            throw HTTPDNSBadQuery(description: "dnspod alg must be des or aes, got \"\(alg)\"")
        }
        do throws(DNSPodCipher.Failure) {
            return try DNSPodCipher(algorithm, key: LabDNS.dnspodKey)
        } catch {
            // LabDNS.dnspodKey suits both ciphers; this is a lab bug, said as plainly as a bad query.
            throw HTTPDNSBadQuery(description: "the lab's dnspod key: \(error)")
        }
    }

    /// `pairs` with `dn` and `ip` decrypted; throws when one does not decrypt under the lab's key.
    static func decrypted(
        _ pairs: [(name: String, value: String)], with cipher: DNSPodCipher
    ) throws(DNSPodCipher.Failure) -> [(name: String, value: String)] {
        var plain = pairs
        for index in plain.indices where encryptedParameters.contains(plain[index].name) {
            plain[index].value = try cipher.decrypt(plain[index].value)
        }
        return plain
    }
}
