import Foundation
import Testing

/// DNSPod D+'s ciphers computed by the `openssl` command-line tool, so the lab's encrypted
/// interface is checked by a client that is not the lab's own code (single DES from OpenSSL's
/// legacy provider, not the lab's DES-EDE3 equivalent).
enum OpenSSLTool {
    enum Algorithm: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case des
        case aes

        var testDescription: String { rawValue }
    }

    /// `plaintext` encrypted under `key` as the vendor's SDK sends it: hex of the ciphertext (DES)
    /// or of a random IV ‖ ciphertext (AES).
    static func encrypt(_ plaintext: String, _ algorithm: Algorithm, key: String) async throws -> String {
        let iv = algorithm == .aes ? try await run(["rand", "16"], input: Data()) : Data()
        let ciphertext = try await run(cipherArguments(algorithm, key: key, iv: iv), input: Data(plaintext.utf8))
        return hex(iv + ciphertext)
    }

    /// The text a hex answer body stands for under `key`.
    static func decrypt(_ wire: String, _ algorithm: Algorithm, key: String) async throws -> String {
        guard let bytes = bytes(hex: wire) else { throw CommandFailure(description: "not hex: \(wire)") }
        let ivLength = algorithm == .aes ? 16 : 0
        let iv = bytes.prefix(ivLength)
        let plaintext = try await run(
            ["-d"] + cipherArguments(algorithm, key: key, iv: iv), input: bytes.dropFirst(ivLength))
        return String(decoding: plaintext, as: UTF8.self)
    }

    private static func cipherArguments(_ algorithm: Algorithm, key: String, iv: Data) -> [String] {
        let keyBytes = Data(key.utf8)
        switch algorithm {
        case .des:
            return ["-des-ecb", "-provider", "legacy", "-provider", "default", "-K", hex(keyBytes.prefix(8))]
        case .aes:
            let padded = keyBytes + Data(repeating: UInt8(ascii: "0"), count: max(0, 16 - keyBytes.count))
            return ["-aes-128-cbc", "-K", hex(padded), "-iv", hex(iv)]
        }
    }

    /// `openssl enc ARGUMENTS` (or `openssl rand`) reading `input` from a file; its standard output.
    private static func run(_ arguments: [String], input: Data) async throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lab-openssl-\(UUID().uuidString)")
        try input.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let full = arguments.first == "rand" ? arguments : ["enc"] + arguments + ["-in", file.path]
        let result = try await Command.run("openssl", full)
        guard result.exitCode == 0 else {
            throw CommandFailure(description: "openssl \(full.joined(separator: " ")): \(result.errorOutput)")
        }
        return result.output
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var data = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            data.append(byte)
        }
        return data
    }
}
