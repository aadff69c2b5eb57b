internal import CCurlShim

/// libcurl's transfer result codes (CURLcode) that the engine produces or classifies, as plain
/// Swift `Int`s so code outside `Curl/` can name them without seeing the C module. Written as
/// literals (so they fold into switches); `CurlConstantsTests` pins each one to the header.
package enum CurlCode {
    /// CURLE_OK
    package static let ok = 0
    /// CURLE_UNSUPPORTED_PROTOCOL
    package static let unsupportedProtocol = 1
    /// CURLE_URL_MALFORMAT
    package static let urlMalformat = 3
    /// CURLE_COULDNT_RESOLVE_PROXY
    package static let couldntResolveProxy = 5
    /// CURLE_COULDNT_RESOLVE_HOST
    package static let couldntResolveHost = 6
    /// CURLE_COULDNT_CONNECT
    package static let couldntConnect = 7
    /// CURLE_WEIRD_SERVER_REPLY
    package static let weirdServerReply = 8
    /// CURLE_HTTP2
    package static let http2 = 16
    /// CURLE_HTTP_RETURNED_ERROR
    package static let httpReturnedError = 22
    /// CURLE_READ_ERROR
    package static let readError = 26
    /// CURLE_OUT_OF_MEMORY
    package static let outOfMemory = 27
    /// CURLE_OPERATION_TIMEDOUT
    package static let operationTimedOut = 28
    /// CURLE_SSL_CONNECT_ERROR
    package static let sslConnectError = 35
    /// CURLE_ABORTED_BY_CALLBACK
    package static let abortedByCallback = 42
    /// CURLE_BAD_FUNCTION_ARGUMENT
    package static let badFunctionArgument = 43
    /// CURLE_INTERFACE_FAILED
    package static let interfaceFailed = 45
    /// CURLE_TOO_MANY_REDIRECTS
    package static let tooManyRedirects = 47
    /// CURLE_OBSOLETE51: CURLE_PEER_FAILED_VERIFICATION before curl 7.62 (which moved it to 60),
    /// kept so a code from an older libcurl still reads as a TLS failure.
    package static let legacyPeerFailedVerification = 51
    /// CURLE_GOT_NOTHING
    package static let gotNothing = 52
    /// CURLE_SSL_ENGINE_NOTFOUND
    package static let sslEngineNotFound = 53
    /// CURLE_SSL_ENGINE_SETFAILED
    package static let sslEngineSetFailed = 54
    /// CURLE_RECV_ERROR
    package static let recvError = 56
    /// CURLE_SSL_CERTPROBLEM
    package static let sslCertProblem = 58
    /// CURLE_SSL_CIPHER
    package static let sslCipher = 59
    /// CURLE_PEER_FAILED_VERIFICATION (also CURLE_SSL_CACERT since curl 7.62)
    package static let peerFailedVerification = 60
    /// CURLE_USE_SSL_FAILED
    package static let useSSLFailed = 64
    /// CURLE_SSL_ENGINE_INITFAILED
    package static let sslEngineInitFailed = 66
    /// CURLE_SSL_CACERT_BADFILE
    package static let sslCACertBadFile = 77
    /// CURLE_SSL_SHUTDOWN_FAILED
    package static let sslShutdownFailed = 80
    /// CURLE_SSL_ISSUER_ERROR
    package static let sslIssuerError = 83
    /// CURLE_SSL_PINNEDPUBKEYNOTMATCH
    package static let sslPinnedPubKeyNotMatch = 90
    /// CURLE_SSL_INVALIDCERTSTATUS
    package static let sslInvalidCertStatus = 91
    /// CURLE_HTTP2_STREAM
    package static let http2Stream = 92
    /// CURLE_HTTP3
    package static let http3 = 95
    /// CURLE_SSL_CLIENTCERT
    package static let sslClientCert = 98

    /// libcurl's text for any result code.
    static func text(_ code: Int) -> String {
        CurlError.easyText(CURLcode(rawValue: UInt32(truncatingIfNeeded: code)))
    }
}
