internal import CCryptoShim
import Foundation

/// The keys of the certificates an app's trust anchors hold, as pins are written (base64 of the
/// SHA-256 of the SubjectPublicKeyInfo), through the runner's OpenSSL facade: a `@raw/NAME`
/// file's, and the system store's, so a verified chain's root can be looked for among them.
public enum AnchorKeys {
    /// The keys of the certificates in a PEM text; nil when it holds none.
    static func pins(inPEM data: Data) -> [String]? {
        var capacity = 64
        while true {
            var digests = [UInt8](repeating: 0, count: 32 * capacity)
            let count = data.withUnsafeBytes { pem in
                digests.withUnsafeMutableBufferPointer { out in
                    ccrypto_pem_spki_sha256(pem.bindMemory(to: UInt8.self).baseAddress, pem.count, out.baseAddress, capacity)
                }
            }
            guard count > 0 else { return nil }
            guard count <= capacity else {
                capacity = count
                continue
            }
            return (0..<count).map { Data(digests[32 * $0..<32 * ($0 + 1)]).base64EncodedString() }
        }
    }

    /// The keys of this machine's CA store (OpenSSL's default CA file), read once: what an
    /// Android app's `system` anchor stands for here.
    public static let system: Set<String> = {
        guard let path = ccrypto_default_ca_file().map({ String(cString: $0) }),
            let data = FileManager.default.contents(atPath: path)
        else { return [] }
        return Set(pins(inPEM: data) ?? [])
    }()

    /// The keys of the file `@raw/NAME` stands for in `directory`: `NAME` or `NAME.EXT`
    /// (aapt drops the extension); nil when there is none, or it holds no certificate.
    static func pins(ofRaw name: String, in directory: String) -> [String]? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let file = files.sorted().first(where: { $0 == name || $0.hasPrefix(name + ".") }),
            let data = FileManager.default.contents(atPath: directory + "/" + file)
        else { return nil }
        return pins(inPEM: data)
    }
}
