import CCurlShim
import Foundation
import Testing

@testable import RunnerTransport

/// The Swift constants are literals; these checks pin each one to the C header it names, and
/// make a constant added without a check fail.
@Suite("curl and OpenSSL constants match the C headers", .timeLimit(.minutes(1)))
struct CurlConstantsTests {
    /// One constant: its C name (as in its doc comment), the Swift value and the header's value.
    struct Check: CustomTestStringConvertible, Sendable {
        var name: String
        var swift: Int
        var c: Int
        var testDescription: String { name }

        init(_ name: String, _ swift: Int, _ c: CURLcode) {
            self.init(name, swift, Int(c.rawValue))
        }

        init(_ name: String, _ swift: Int, _ c: Int32) {
            self.init(name, swift, Int(c))
        }

        init(_ name: String, _ swift: Int, _ c: Int) {
            self.name = name
            self.swift = swift
            self.c = c
        }
    }

    static let curlCodes: [Check] = [
        Check("CURLE_OK", CurlCode.ok, CURLE_OK),
        Check("CURLE_UNSUPPORTED_PROTOCOL", CurlCode.unsupportedProtocol, CURLE_UNSUPPORTED_PROTOCOL),
        Check("CURLE_URL_MALFORMAT", CurlCode.urlMalformat, CURLE_URL_MALFORMAT),
        Check("CURLE_COULDNT_RESOLVE_PROXY", CurlCode.couldntResolveProxy, CURLE_COULDNT_RESOLVE_PROXY),
        Check("CURLE_COULDNT_RESOLVE_HOST", CurlCode.couldntResolveHost, CURLE_COULDNT_RESOLVE_HOST),
        Check("CURLE_COULDNT_CONNECT", CurlCode.couldntConnect, CURLE_COULDNT_CONNECT),
        Check("CURLE_WEIRD_SERVER_REPLY", CurlCode.weirdServerReply, CURLE_WEIRD_SERVER_REPLY),
        Check("CURLE_HTTP2", CurlCode.http2, CURLE_HTTP2),
        Check("CURLE_HTTP_RETURNED_ERROR", CurlCode.httpReturnedError, CURLE_HTTP_RETURNED_ERROR),
        Check("CURLE_READ_ERROR", CurlCode.readError, CURLE_READ_ERROR),
        Check("CURLE_OUT_OF_MEMORY", CurlCode.outOfMemory, CURLE_OUT_OF_MEMORY),
        Check("CURLE_OPERATION_TIMEDOUT", CurlCode.operationTimedOut, CURLE_OPERATION_TIMEDOUT),
        Check("CURLE_SSL_CONNECT_ERROR", CurlCode.sslConnectError, CURLE_SSL_CONNECT_ERROR),
        Check("CURLE_ABORTED_BY_CALLBACK", CurlCode.abortedByCallback, CURLE_ABORTED_BY_CALLBACK),
        Check("CURLE_BAD_FUNCTION_ARGUMENT", CurlCode.badFunctionArgument, CURLE_BAD_FUNCTION_ARGUMENT),
        Check("CURLE_INTERFACE_FAILED", CurlCode.interfaceFailed, CURLE_INTERFACE_FAILED),
        Check("CURLE_TOO_MANY_REDIRECTS", CurlCode.tooManyRedirects, CURLE_TOO_MANY_REDIRECTS),
        Check("CURLE_OBSOLETE51", CurlCode.legacyPeerFailedVerification, CURLE_OBSOLETE51),
        Check("CURLE_GOT_NOTHING", CurlCode.gotNothing, CURLE_GOT_NOTHING),
        Check("CURLE_SSL_ENGINE_NOTFOUND", CurlCode.sslEngineNotFound, CURLE_SSL_ENGINE_NOTFOUND),
        Check("CURLE_SSL_ENGINE_SETFAILED", CurlCode.sslEngineSetFailed, CURLE_SSL_ENGINE_SETFAILED),
        Check("CURLE_RECV_ERROR", CurlCode.recvError, CURLE_RECV_ERROR),
        Check("CURLE_SSL_CERTPROBLEM", CurlCode.sslCertProblem, CURLE_SSL_CERTPROBLEM),
        Check("CURLE_SSL_CIPHER", CurlCode.sslCipher, CURLE_SSL_CIPHER),
        Check("CURLE_PEER_FAILED_VERIFICATION", CurlCode.peerFailedVerification, CURLE_PEER_FAILED_VERIFICATION),
        Check("CURLE_USE_SSL_FAILED", CurlCode.useSSLFailed, CURLE_USE_SSL_FAILED),
        Check("CURLE_SSL_ENGINE_INITFAILED", CurlCode.sslEngineInitFailed, CURLE_SSL_ENGINE_INITFAILED),
        Check("CURLE_SSL_CACERT_BADFILE", CurlCode.sslCACertBadFile, CURLE_SSL_CACERT_BADFILE),
        Check("CURLE_SSL_SHUTDOWN_FAILED", CurlCode.sslShutdownFailed, CURLE_SSL_SHUTDOWN_FAILED),
        Check("CURLE_SSL_ISSUER_ERROR", CurlCode.sslIssuerError, CURLE_SSL_ISSUER_ERROR),
        Check("CURLE_SSL_PINNEDPUBKEYNOTMATCH", CurlCode.sslPinnedPubKeyNotMatch, CURLE_SSL_PINNEDPUBKEYNOTMATCH),
        Check("CURLE_SSL_INVALIDCERTSTATUS", CurlCode.sslInvalidCertStatus, CURLE_SSL_INVALIDCERTSTATUS),
        Check("CURLE_HTTP2_STREAM", CurlCode.http2Stream, CURLE_HTTP2_STREAM),
        Check("CURLE_HTTP3", CurlCode.http3, CURLE_HTTP3),
        Check("CURLE_SSL_CLIENTCERT", CurlCode.sslClientCert, CURLE_SSL_CLIENTCERT),
    ]

    static let verifyCodes: [Check] = [
        Check("X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT", X509VerifyCode.unableToGetIssuerCert, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT),
        Check("X509_V_ERR_CERT_NOT_YET_VALID", X509VerifyCode.certNotYetValid, X509_V_ERR_CERT_NOT_YET_VALID),
        Check("X509_V_ERR_CERT_HAS_EXPIRED", X509VerifyCode.certHasExpired, X509_V_ERR_CERT_HAS_EXPIRED),
        Check(
            "X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT", X509VerifyCode.depthZeroSelfSignedCert,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT),
        Check("X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN", X509VerifyCode.selfSignedCertInChain, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN),
        Check(
            "X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY", X509VerifyCode.unableToGetIssuerCertLocally,
            X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY),
        Check(
            "X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE", X509VerifyCode.unableToVerifyLeafSignature,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE),
        Check("X509_V_ERR_CERT_UNTRUSTED", X509VerifyCode.certUntrusted, X509_V_ERR_CERT_UNTRUSTED),
        Check("X509_V_ERR_HOSTNAME_MISMATCH", X509VerifyCode.hostnameMismatch, X509_V_ERR_HOSTNAME_MISMATCH),
    ]

    @Test("each CurlCode constant is libcurl's value", arguments: curlCodes)
    func curlCode(check: Check) {
        #expect(check.swift == check.c, "\(check.name)")
    }

    @Test("each X509VerifyCode constant is OpenSSL's value", arguments: verifyCodes)
    func verifyCode(check: Check) {
        #expect(check.swift == check.c, "\(check.name)")
    }

    /// The table that checks each file's constants.
    static let tables: [String: [Check]] = ["CurlCode.swift": curlCodes, "X509VerifyCode.swift": verifyCodes]

    /// The declarations, read from the source: every `/// C_NAME` + `static let name = N` pair
    /// must be in the file's table above, with the same value.
    @Test("every constant declared in Curl/ has a check here", arguments: tables.keys.sorted())
    func everyConstantChecked(file: String) throws {
        let declared = try Self.declaredConstants(in: file)
        let checks = Self.tables[file] ?? []
        #expect(!declared.isEmpty, "no constants found in \(file)")
        let checked = Dictionary(checks.map { ($0.name, $0.swift) }, uniquingKeysWith: { first, _ in first })
        #expect(checked.count == checks.count, "a C name is checked twice in the table for \(file)")
        let unchecked = declared.filter { checked[$0.key] != $0.value }.keys.sorted()
        let undeclared = checked.filter { declared[$0.key] != $0.value }.keys.sorted()
        #expect(unchecked == [], "\(file): declared but not checked (or with another value)")
        #expect(undeclared == [], "\(file): checked but not declared (or with another value)")
    }

    /// C name → literal value of each constant in `Sources/RunnerTransport/Curl/<file>`: the first
    /// word of a declaration's doc comment is the C name.
    static func declaredConstants(in file: String) throws -> [String: Int] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/RunnerTransport/Curl/\(file)")
        let source = try String(contentsOf: url, encoding: .utf8)
        let declaration = #////\s+((?:CURLE|X509_V_ERR)_[A-Z0-9_]+)[^\n]*\n(?:[ \t]*///[^\n]*\n)*[ \t]*package static let \w+ = (\d+)\n/#
        var constants: [String: Int] = [:]
        for match in source.matches(of: declaration) {
            let name = String(match.output.1)
            #expect(constants[name] == nil, "\(name) declared twice in \(file)")
            constants[name] = Int(match.output.2)
        }
        // Every `static let` must have been matched (a declaration without its C name would slip by).
        let lets = source.matches(of: #/static let \w+ = /#).count
        #expect(lets == constants.count, "\(file): \(lets) constants, \(constants.count) with a C name in their doc comment")
        return constants
    }
}
