import Foundation
import RunnerVocabulary

/// One reusable transfer slot: an easy handle plus the state of the transfer it runs now
/// (response head, captured body, digest, certificate, request body file).
final class Transfer: EasyHandleSink {
    let easy: EasyHandle
    /// Where this transfer sits in the engine's in-flight list (-1 when idle).
    var inFlightIndex = -1
    private(set) var completion: ((consuming TransferOutcome) -> Void)?
    private(set) var pool: ConnectionPool?

    private let digest: SHA256Digest
    private let certificates: CertificateCache
    private var head = ResponseHead()
    private var body = Data()
    private var bodyLength = 0
    private var captureLimit = 0
    private var digestFailed = false
    private var digestsBody = true
    private var isHTTPS = false
    private var verifyName: String?
    private var certificate: CertificateSummary?
    private var session: TLSSession?
    private var lookedForCertificate = false
    private var fileBody: FileBody?
    /// The lasting options the handle holds from the last transfer (nil: reset it first).
    private var lastingOptions: CurlRequest.LastingOptions?

    init(slot: Int, certificates: CertificateCache) throws(CurlError) {
        easy = try EasyHandle(slot: slot)
        digest = try SHA256Digest()
        self.certificates = certificates
        easy.sink = self
    }

    /// Sets the handle up for `spec` on `pool`'s connections. On failure the transfer is left
    /// idle (not started) and the failure says which call refused.
    func begin(_ spec: TransferSpec, pool: ConnectionPool, completion: @escaping (consuming TransferOutcome) -> Void) throws(TransferError) {
        self.completion = completion
        self.pool = pool
        head.reset()
        body = Data()
        bodyLength = 0
        captureLimit = max(0, spec.bodyCaptureLimit)
        digestsBody = spec.digestsBody
        digestFailed = digestsBody && !digest.reset()
        certificate = nil
        session = nil
        lookedForCertificate = false
        fileBody = nil

        let request = try CurlRequest(spec: spec)
        isHTTPS = request.isHTTPS
        verifyName = request.verifyName
        if case .file(let path) = request.body { fileBody = try FileBody(path: path) }
        do {
            try configure(request)
        } catch {
            throw error.transferFailure
        }
    }

    private func configure(_ request: CurlRequest) throws(CurlError) {
        let lasting = request.onlyLastingOptions
        // Nil until this configuration has fully succeeded: a refused option leaves the
        // handle in a state the next transfer must not build on (moved out, not copied).
        let previous = lastingOptions.take()
        if let lasting, let previous, lasting == previous {
            // The handle already holds every lasting option as this request wants it: only
            // what each transfer sets afresh (a reset and two dozen options cost more than the
            // rest of starting a transfer).
            try easy.prepareAgain(verifyName: request.verifyName)
            try setPerTransferOptions(request)
            lastingOptions = lasting
            return
        }
        try easy.reset(verifyName: request.verifyName)
        try setPerTransferOptions(request)
        // Never through a proxy from the environment (http_proxy, ALL_PROXY…): every transfer
        // must connect to exactly the address the strategy chose.
        try easy.set(.proxy, "")
        // The runner follows redirects itself (each hop is resolved and pinned again).
        try easy.set(.followLocation, 0)
        // The body as sent on the wire: it is hashed and compared, never decoded.
        try easy.set(.httpContentDecoding, 0)
        try easy.set(request.lasting.httpVersion)
        try easy.set(.verifyPeer, request.lasting.verifyPeer ? 1 : 0)
        try easy.set(.verifyHost, request.lasting.verifyHost ? 2 : 0)
        // No TLS session resumption: a resumed session skips the certificate check (under trust
        // override the name would not be checked again) and leaves OpenSSL no verified chain, so
        // its evidence would say `chain_verified: false` with the leaf alone and a pin on an
        // intermediate would fail. Every new connection verifies the chain the server presents
        // now; a kept-alive connection still serves many requests.
        try easy.set(.sessionIDCache, 0)
        if let caFile = request.lasting.caFile { try easy.set(.caInfo, caFile) }
        if let sslVersion = request.lasting.sslVersion { try easy.set(.sslVersion, sslVersion) }
        try easy.setTLSLimits(
            cipherList: request.lasting.cipherList, tls13Ciphers: request.lasting.tls13Ciphers, groups: request.lasting.curves)
        if request.connectOnly {
            try easy.set(.connectOnly, 1)
            return
        }
        if request.noBody { try easy.set(.noBody, 1) }
        switch request.body {
        case nil:
            break
        case .bytes(let data)?:
            // Data.withUnsafeBytes rethrows untyped errors: carry the typed one out by value.
            let refused: CurlError? = data.withUnsafeBytes { bytes in
                do throws(CurlError) { try easy.setPostBytes(bytes) } catch { return error }
                return nil
            }
            if let refused { throw refused }
        case .file?:
            try easy.set(.post, 1)
            try easy.set(.postFieldSize, fileBody?.size ?? 0)
            try easy.streamBodyFromSink()
        }
        if let method = request.customMethod { try easy.set(.customRequest, method) }
        lastingOptions = lasting
    }

    /// What every transfer sets, whatever the handle holds: its pool's share, the URL, the
    /// timeouts, the connect-to line and the headers.
    private func setPerTransferOptions(_ request: CurlRequest) throws(CurlError) {
        // Connections come from this pool key's share only (see ShareHandle for why).
        try easy.attach(to: pool?.share)
        try easy.set(.url, request.url)
        try easy.set(.timeoutMilliseconds, request.timeoutMilliseconds)
        try easy.set(.connectTimeoutMilliseconds, request.connectTimeoutMilliseconds)
        if !request.connectTo.isEmpty { try easy.set(.connectTo, request.connectTo) }
        // A connect-only probe sends no request: no headers.
        if !request.connectOnly { try easy.set(.httpHeader, request.headerLines) }
    }

    /// What came of the transfer (libcurl said `code`, or `failure` overrides it), read from
    /// the handle now: libcurl overwrites its infos with the next transfer.
    func outcome(code: Int, failure override: TransferError? = nil) -> TransferOutcome {
        let newConnections = easy.info(.numConnects) ?? 0
        var clock = PhaseClock()
        clock.nameLookup = easy.info(.nameLookupTime) ?? 0
        clock.connect = easy.info(.connectTime) ?? 0
        clock.appConnect = easy.info(.appConnectTime) ?? 0
        clock.startTransfer = easy.info(.startTransferTime) ?? 0
        clock.total = easy.info(.totalTime) ?? 0
        var verification = easy.verificationFailure()
        if verification == nil, code == CurlCode.peerFailedVerification {
            // curl's own post-handshake name check failed (the verifier itself was satisfied).
            verification = VerificationFailure(code: X509VerifyCode.hostnameMismatch, reason: "hostname mismatch", leaf: easy.handshakeLeaf())
        }
        if isHTTPS, certificate == nil {
            // No header arrived (connect-only, or a failure): what the handshake showed.
            let live = certificates.live(of: easy)
            certificate = easy.handshakeLeaf() ?? live.certificate
            if session == nil { session = live.session }
        }
        if isHTTPS, session == nil { session = certificates.live(of: easy).session ?? easy.handshakeSession() }
        let evidence = TransferEvidence(
            connectedIP: easy.info(.primaryIP),
            connectedPort: easy.info(.primaryPort).flatMap { $0 > 0 ? $0 : nil },
            httpVersion: easy.info(.httpVersion).flatMap(httpVersionText(curlValue:)),
            certificate: certificate,
            verification: verification,
            tls: session,
            timings: clock.phases(reusedConnection: newConnections == 0),
            newConnections: newConnections)

        if let override { return TransferOutcome(evidence: evidence, result: .failure(override)) }
        guard code == CurlCode.ok else {
            let curlText = easy.errorText ?? CurlCode.text(code)
            let failure = TransferError(
                kind: TransferError.Kind(curlCode: code, message: curlText),
                message: FailureMessage.text(curlText: curlText, verification: verification, verifyName: verifyName),
                curlCode: code)
            return TransferOutcome(evidence: evidence, result: .failure(failure))
        }
        var sha256: String?
        if digestsBody {
            guard !digestFailed, let digested = digest.finish() else {
                let failure = TransferError(kind: .io, message: "SHA-256 of the response body failed (OpenSSL)", curlCode: CurlCode.outOfMemory)
                return TransferOutcome(evidence: evidence, result: .failure(failure))
            }
            sha256 = digested
        }
        let response = TransferResponse(
            status: easy.info(.responseCode) ?? head.status, headers: head.headers, body: body,
            bodyLength: bodyLength, bodySHA256: sha256, trailers: head.trailers)
        return TransferOutcome(evidence: evidence, result: .success(response))
    }

    /// Back to idle: drops what pins memory or files, and detaches from the pool so an unused
    /// pool can be closed.
    func recycle() {
        completion = nil
        pool = nil
        fileBody = nil
        body = Data()
        head.reset()
        certificate = nil
        session = nil
        try? easy.attach(to: nil)
    }

    // MARK: EasyHandleSink

    func easyHandle(_ easy: EasyHandle, receivedBody bytes: UnsafeRawBufferPointer) -> Bool {
        bodyLength += bytes.count
        if digestsBody, !digestFailed, !digest.update(bytes) { digestFailed = true }
        let room = captureLimit - body.count
        if room > 0, let base = bytes.baseAddress {
            body.append(base.assumingMemoryBound(to: UInt8.self), count: min(room, bytes.count))
        }
        return true
    }

    func easyHandle(_ easy: EasyHandle, receivedHeaderLine line: UnsafeRawBufferPointer) {
        if isHTTPS, !lookedForCertificate {
            // From the live session: also right on a reused connection, where no handshake ran.
            lookedForCertificate = true
            (certificate, session) = certificates.live(of: easy)
        }
        head.consume(line: line)
    }

    func easyHandle(_ easy: EasyHandle, readBodyInto buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let fileBody else { return 0 }
        return fileBody.read(into: buffer)
    }

    func easyHandle(_ easy: EasyHandle, seekBodyTo offset: Int64) -> Bool {
        fileBody?.seek(to: offset) ?? (offset == 0)
    }
}
