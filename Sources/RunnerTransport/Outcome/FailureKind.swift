extension TransferFailure.Kind {
    /// The failure kind of a libcurl result code (CURLcode), as reports classify it.
    init(curlCode: Int) {
        switch curlCode {
        case 5, 6:
            // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST
            self = .resolve
        case 7, 45:
            // COULDNT_CONNECT, INTERFACE_FAILED
            self = .connect
        case 28:
            // OPERATION_TIMEDOUT
            self = .timeout
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 83, 90, 91, 98:
            // SSL_CONNECT_ERROR, PEER_FAILED_VERIFICATION (51 in old numbering, 60), SSL_ENGINE_*,
            // SSL_CERTPROBLEM, SSL_CIPHER, USE_SSL_FAILED, SSL_CACERT_BADFILE, SSL_SHUTDOWN_FAILED,
            // SSL_ISSUER_ERROR, SSL_PINNEDPUBKEYNOTMATCH, SSL_INVALIDCERTSTATUS, SSL_CLIENTCERT
            self = .tls
        case 1, 3, 8, 16, 22, 47, 52, 92, 95:
            // UNSUPPORTED_PROTOCOL, URL_MALFORMAT, WEIRD_SERVER_REPLY, HTTP2, HTTP_RETURNED_ERROR,
            // TOO_MANY_REDIRECTS, GOT_NOTHING, HTTP2_STREAM, HTTP3
            self = .http
        default:
            // WRITE_ERROR (23), READ_ERROR (26), ABORTED_BY_CALLBACK (42), SEND_ERROR (55),
            // RECV_ERROR (56), PARTIAL_FILE (18), out of memory and the rest.
            self = .io
        }
    }

    /// The kind of a failed transfer, refined by libcurl's message where one code covers faults
    /// of different parties: a receive error caused by a header block over curl's limit is the
    /// server's protocol fault (`http`), not the network's (`io`).
    init(curlCode: Int, message: String) {
        if curlCode == 56, message.contains("Too large response headers") {
            self = .http
            return
        }
        self.init(curlCode: curlCode)
    }
}
