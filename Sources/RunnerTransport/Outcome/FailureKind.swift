import RunnerVocabulary

extension TransferError.Kind {
    /// The failure kind of a libcurl result code (CURLcode), as reports classify it.
    init(curlCode: Int) {
        switch curlCode {
        case CurlCode.couldntResolveProxy, CurlCode.couldntResolveHost:
            self = .resolve
        case CurlCode.couldntConnect, CurlCode.interfaceFailed:
            self = .connect
        case CurlCode.operationTimedOut:
            self = .timeout
        case CurlCode.sslConnectError, CurlCode.legacyPeerFailedVerification, CurlCode.sslEngineNotFound,
            CurlCode.sslEngineSetFailed, CurlCode.sslCertProblem, CurlCode.sslCipher, CurlCode.peerFailedVerification,
            CurlCode.useSSLFailed, CurlCode.sslEngineInitFailed, CurlCode.sslCACertBadFile, CurlCode.sslShutdownFailed,
            CurlCode.sslIssuerError, CurlCode.sslPinnedPubKeyNotMatch, CurlCode.sslInvalidCertStatus,
            CurlCode.sslClientCert:
            self = .tls
        case CurlCode.unsupportedProtocol, CurlCode.urlMalformat, CurlCode.weirdServerReply, CurlCode.http2,
            CurlCode.httpReturnedError, CurlCode.tooManyRedirects, CurlCode.gotNothing, CurlCode.http2Stream,
            CurlCode.http3:
            self = .http
        default:
            // CURLE_WRITE_ERROR, CURLE_READ_ERROR, CURLE_ABORTED_BY_CALLBACK, CURLE_SEND_ERROR,
            // CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, out of memory and the rest.
            self = .io
        }
    }

    /// The kind of a failed transfer, refined by libcurl's message where one code covers faults
    /// of different parties: a receive error caused by a header block over curl's limit is the
    /// server's protocol fault (`http`), not the network's (`io`).
    init(curlCode: Int, message: String) {
        if curlCode == CurlCode.recvError, message.contains("Too large response headers") {
            self = .http
            return
        }
        self.init(curlCode: curlCode)
    }
}
