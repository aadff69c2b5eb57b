internal import CCurlShim
import RunnerVocabulary

/// What an easy handle's callbacks deliver; implemented by the engine's transfer state.
protocol EasyHandleSink: AnyObject {
    /// Response body bytes; false aborts the transfer (CURLE_WRITE_ERROR).
    func easyHandle(_ easy: EasyHandle, receivedBody bytes: UnsafeRawBufferPointer) -> Bool
    /// One raw header line (status lines and the blank line included), CRLF included.
    func easyHandle(_ easy: EasyHandle, receivedHeaderLine line: UnsafeRawBufferPointer)
    /// Request body bytes to send: how many were written (0 = end), nil aborts.
    func easyHandle(_ easy: EasyHandle, readBodyInto buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// Rewinds the request body to `offset` from its start; false if it cannot.
    func easyHandle(_ easy: EasyHandle, seekBodyTo offset: Int64) -> Bool
}

/// One libcurl easy handle, reused transfer after transfer (`reset()`), with the buffers and
/// C state its options point at: error buffer, header and connect-to lists, TLS hook context.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// The engine's index of the transfer that owns this handle.
    let slot: Int
    /// Receives the callbacks. Unowned: the sink owns this handle, and libcurl only calls
    /// back while the sink drives a transfer.
    unowned(unsafe) var sink: (any EasyHandleSink)?

    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let tlsContext: OpaquePointer
    private var headerList: StringList?
    private var connectToList: StringList?
    /// The pool the handle is attached to; held so it outlives the attachment.
    private(set) var share: ShareHandle?

    init(slot: Int) throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let raw = curl_easy_init() else {
            throw CurlError.null(call: "curl_easy_init", what: "out of memory")
        }
        guard let tlsContext = ccurl_tls_context_create() else {
            curl_easy_cleanup(raw)
            throw CurlError.null(call: "ccurl_tls_context_create", what: "out of memory")
        }
        self.raw = raw
        self.slot = slot
        self.tlsContext = tlsContext
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        // curl_easy_cleanup detaches from multi and share first; the share is released after.
        curl_easy_cleanup(raw)
        ccurl_tls_context_destroy(tlsContext)
        errorBuffer.deallocate()
    }

    // MARK: Setting up a transfer

    /// Forgets every option of the previous transfer (curl_easy_reset) and installs the ones
    /// every transfer needs: callbacks, error buffer, owner pointer, TLS hook, no signals.
    /// `verifyName` is the certificate name OpenSSL must check during the handshake.
    func reset(verifyName: String?) throws(CurlError) {
        curl_easy_reset(raw)
        headerList = nil
        connectToList = nil
        errorBuffer[0] = 0
        guard ccurl_tls_context_prepare(tlsContext, verifyName) == 1 else {
            throw CurlError.null(call: "ccurl_tls_context_prepare", what: "out of memory")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        try setPointer(CURLOPT_PRIVATE, me, "CURLOPT_PRIVATE")
        try setPointer(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer), "CURLOPT_ERRORBUFFER")
        try checkEasy(
            ccurl_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION, easyWriteCallback),
            "curl_easy_setopt(CURLOPT_WRITEFUNCTION)")
        try setPointer(CURLOPT_WRITEDATA, me, "CURLOPT_WRITEDATA")
        try checkEasy(
            ccurl_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION, easyHeaderCallback),
            "curl_easy_setopt(CURLOPT_HEADERFUNCTION)")
        try setPointer(CURLOPT_HEADERDATA, me, "CURLOPT_HEADERDATA")
        try checkEasy(ccurl_easy_install_tls_hook(raw, tlsContext), "curl_easy_setopt(CURLOPT_SSL_CTX_FUNCTION)")
        try setTLSLimits(cipherList: nil, tls13Ciphers: nil, groups: nil)
        try set(.noSignal, 1)
    }

    /// The client's TLS limits (OpenSSL's list syntax; nil: OpenSSL's default), which the TLS
    /// hook applies to each new connection until they are set again. Not libcurl's
    /// CURLOPT_SSL_CIPHER_LIST and kin: the shim says why.
    func setTLSLimits(cipherList: String?, tls13Ciphers: String?, groups: String?) throws(CurlError) {
        let context = tlsContext
        let held = Self.withOptionalCString(cipherList) { ciphers in
            Self.withOptionalCString(tls13Ciphers) { suites in
                Self.withOptionalCString(groups) { groups in ccurl_tls_context_set_limits(context, ciphers, suites, groups) }
            }
        }
        guard held == 1 else { throw CurlError.null(call: "ccurl_tls_context_set_limits", what: "out of memory") }
    }

    private static func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }

    /// Readies the handle for another transfer like its last, without a reset: its options
    /// stay; the error text and the TLS hook's record of the last handshake are cleared.
    func prepareAgain(verifyName: String?) throws(CurlError) {
        errorBuffer[0] = 0
        guard ccurl_tls_context_prepare(tlsContext, verifyName) == 1 else {
            throw CurlError.null(call: "ccurl_tls_context_prepare", what: "out of memory")
        }
    }

    func set(_ option: EasyLongOption, _ value: Int) throws(CurlError) {
        try checkEasy(ccurl_easy_setopt_long(raw, option.curl, value), "curl_easy_setopt(\(option.name))")
    }

    func set(_ option: EasyOffsetOption, _ value: Int64) throws(CurlError) {
        try checkEasy(ccurl_easy_setopt_off_t(raw, option.curl, curl_off_t(value)), "curl_easy_setopt(\(option.name))")
    }

    func set(_ option: EasyStringOption, _ value: String) throws(CurlError) {
        // withCString: libcurl copies the text; an implicit conversion would copy it into an array first.
        try checkEasy(value.withCString { ccurl_easy_setopt_string(raw, option.curl, $0) }, "curl_easy_setopt(\(option.name))")
    }

    /// Sets a list option; the handle keeps the list until the next `reset()`, and hands the
    /// same list again to a transfer that sets the same lines (a pool's connect-to line is the
    /// same for each of its transfers, and headers often are): libcurl only reads a list.
    func set(_ option: EasyListOption, _ lines: [String]) throws(CurlError) {
        let held: StringList?
        switch option {
        case .httpHeader: held = headerList
        case .connectTo: held = connectToList
        }
        let list: StringList
        if let held, held.lines == lines { list = held } else { list = try StringList(lines) }
        try setPointer(option.curl, UnsafeMutableRawPointer(list.raw), "\(option.name)")
        switch option {
        case .httpHeader: headerList = list
        case .connectTo: connectToList = list
        }
    }

    func set(_ version: CurlHTTPVersion) throws(CurlError) {
        try set(.httpVersion, version.curlValue)
    }

    /// The request body, copied by libcurl (binary safe): POSTFIELDSIZE_LARGE + COPYPOSTFIELDS.
    func setPostBytes(_ bytes: UnsafeRawBufferPointer) throws(CurlError) {
        try checkEasy(
            ccurl_easy_set_post_bytes(raw, bytes.baseAddress, curl_off_t(bytes.count)),
            "curl_easy_setopt(CURLOPT_COPYPOSTFIELDS)")
    }

    /// Makes libcurl pull the request body from the sink (read and seek callbacks).
    func streamBodyFromSink() throws(CurlError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try checkEasy(
            ccurl_easy_setopt_read_function(raw, CURLOPT_READFUNCTION, easyReadCallback),
            "curl_easy_setopt(CURLOPT_READFUNCTION)")
        try setPointer(CURLOPT_READDATA, me, "CURLOPT_READDATA")
        try checkEasy(
            ccurl_easy_setopt_seek_function(raw, CURLOPT_SEEKFUNCTION, easySeekCallback),
            "curl_easy_setopt(CURLOPT_SEEKFUNCTION)")
        try setPointer(CURLOPT_SEEKDATA, me, "CURLOPT_SEEKDATA")
    }

    /// Attaches the handle to a connection pool (nil detaches; needed before a pool can close).
    func attach(to share: ShareHandle?) throws(CurlError) {
        if share === self.share { return }
        try setPointer(CURLOPT_SHARE, share?.raw, "CURLOPT_SHARE")
        self.share = share
    }

    private func setPointer(_ option: CURLoption, _ value: UnsafeMutableRawPointer?, _ name: String) throws(CurlError) {
        try checkEasy(ccurl_easy_setopt_pointer(raw, option, value), "curl_easy_setopt(\(name))")
    }

    // MARK: Reading results

    func info(_ info: EasyLongInfo) -> Int? {
        var value = 0
        return ccurl_easy_getinfo_long(raw, info.curl, &value) == CURLE_OK ? value : nil
    }

    func info(_ info: EasyOffsetInfo) -> Int64? {
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(raw, info.curl, &value) == CURLE_OK ? Int64(value) : nil
    }

    /// A string info, copied (libcurl overwrites it with the next transfer); nil when empty.
    func info(_ info: EasyStringInfo) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, info.curl, &value) == CURLE_OK, let value, value[0] != 0 else {
            return nil
        }
        return String(cString: value)
    }

    /// What libcurl wrote to the error buffer for the last failure, nil when nothing.
    var errorText: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    // MARK: TLS evidence

    /// The leaf of the live TLS session (works on reused connections; call mid-transfer).
    func livePeerCertificate() -> CertificateSummary? {
        CertificateSummary.extract { ccurl_easy_peer_certificate(raw, &$0) }
    }

    /// The live session's leaf certificate object, by address (not retained), nil without a
    /// TLS session.
    func livePeerLeaf() -> UnsafeRawPointer? {
        ccurl_easy_peer_leaf(raw)
    }

    func livePeerFingerprint() -> CertificateFingerprint? {
        var bytes = (UInt64(0), UInt64(0), UInt32(0))
        let ok = withUnsafeMutableBytes(of: &bytes) { buffer in
            ccurl_easy_peer_fingerprint(raw, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)) == 1
        }
        return ok ? CertificateFingerprint(high: bytes.0, middle: bytes.1, low: bytes.2) : nil
    }

    /// The leaf seen by the verifier, when this transfer made a new TLS connection.
    func handshakeLeaf() -> CertificateSummary? {
        CertificateSummary.extract { ccurl_tls_context_leaf(tlsContext, &$0) }
    }

    /// The version and cipher this transfer's handshake negotiated (a new TLS connection only),
    /// without the chain: what a connect-only probe, whose session is gone, still tells.
    func handshakeSession() -> TLSSession? {
        var version: UnsafePointer<CChar>?
        var cipher: UnsafePointer<CChar>?
        guard ccurl_tls_context_negotiated(tlsContext, &version, &cipher) == 1, let version, let cipher else { return nil }
        return TLSSession(
            version: TLSVersion(openSSLName: String(cString: version)), cipher: String(cString: cipher), chainVerified: false,
            chain: [])
    }

    /// OpenSSL's first verification error in this transfer's handshake, with the leaf.
    func verificationFailure() -> VerificationFailure? {
        var code = 0
        var reason: UnsafePointer<CChar>?
        guard ccurl_tls_context_failure(tlsContext, &code, &reason) == 1 else { return nil }
        return VerificationFailure(
            code: code, reason: reason.map { String(cString: $0) } ?? "error \(code)", leaf: handshakeLeaf())
    }

    /// The handle behind a CURLINFO_PRIVATE pointer (the engine keeps every handle alive).
    static func owner(of raw: UnsafeMutableRawPointer) -> EasyHandle? {
        var pointer: UnsafeMutableRawPointer?
        guard ccurl_easy_getinfo_pointer(raw, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else {
            return nil
        }
        return Unmanaged<EasyHandle>.fromOpaque(pointer).takeUnretainedValue()
    }
}

// MARK: C callbacks (no captures: the handle comes back through the user pointer)

private let easyWriteCallback: curl_write_callback = { data, size, count, user in
    guard let user else { return 0 }
    let easy = Unmanaged<EasyHandle>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    guard let sink = easy.sink else { return 0 }
    return sink.easyHandle(easy, receivedBody: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let easyHeaderCallback: curl_write_callback = { data, size, count, user in
    guard let user else { return 0 }
    let easy = Unmanaged<EasyHandle>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    easy.sink?.easyHandle(easy, receivedHeaderLine: UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private let easyReadCallback: curl_read_callback = { data, size, count, user in
    guard let user, let data else { return Int(CURL_READFUNC_ABORT) }
    let easy = Unmanaged<EasyHandle>.fromOpaque(user).takeUnretainedValue()
    let buffer = UnsafeMutableRawBufferPointer(start: data, count: size * count)
    guard let sink = easy.sink, let written = sink.easyHandle(easy, readBodyInto: buffer) else {
        return Int(CURL_READFUNC_ABORT)
    }
    return written
}

private let easySeekCallback: curl_seek_callback = { user, offset, origin in
    guard let user else { return Int32(CURL_SEEKFUNC_FAIL) }
    let easy = Unmanaged<EasyHandle>.fromOpaque(user).takeUnretainedValue()
    // libcurl only rewinds from the start (SEEK_SET) when it resends a body.
    guard origin == SEEK_SET, let sink = easy.sink else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    return sink.easyHandle(easy, seekBodyTo: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_FAIL)
}
