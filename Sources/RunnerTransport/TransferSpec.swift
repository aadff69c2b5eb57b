import Foundation
import RunnerVocabulary

/// One HTTP request for libcurl to carry out, fully decided: the strategy layer has already
/// chosen the URL, the pin and the verification name. Transport does exactly this, nothing more.
public struct TransferSpec: Sendable {
    /// What libcurl gets as the URL (an IP URL under header-only and trust-override).
    public var url: String
    public var method: String
    /// Sent as given, in order; `Host` among them when the strategy sets it.
    public var headers: [Header]
    public var body: RequestBody?
    /// `HOST:PORT:CONNECT-HOST:CONNECT-PORT` (curl's `--connect-to`); IPv6 in brackets.
    public var connectTo: String?
    public var tls: ConnectionTLS
    public var httpVersion: HTTPVersion
    /// Whole transfer; always honoured.
    public var timeout: Duration
    public var connectTimeout: Duration
    /// Connection identity: transfers with different keys never share a connection.
    public var poolKey: PoolKey
    /// Response body bytes kept in memory (the rest is only counted, and hashed when `digestsBody`).
    public var bodyCaptureLimit: Int
    /// Whether the whole body's SHA-256 is computed while it streams (nil in the response when not):
    /// off when no expectation and no output of the run reads it, for it costs more than the
    /// rest of a small response's handling.
    public var digestsBody: Bool
    /// Only connect and handshake (a diagnosis probe); no request is sent.
    public var connectOnly: Bool

    public init(
        url: String, method: String = "GET", headers: [Header] = [],
        body: RequestBody? = nil, connectTo: String? = nil, tls: ConnectionTLS = ConnectionTLS(),
        httpVersion: HTTPVersion = .auto, timeout: Duration = .seconds(10),
        connectTimeout: Duration = .seconds(3), poolKey: PoolKey, bodyCaptureLimit: Int = 1 << 20,
        digestsBody: Bool = true, connectOnly: Bool = false
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.connectTo = connectTo
        self.tls = tls
        self.httpVersion = httpVersion
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.poolKey = poolKey
        self.bodyCaptureLimit = bodyCaptureLimit
        self.digestsBody = digestsBody
        self.connectOnly = connectOnly
    }
}

/// What came of a transfer: evidence always, and a response or a failure.
public struct TransferOutcome: Sendable {
    public var evidence: TransferEvidence
    public var result: Result<TransferResponse, TransferError>

    public init(evidence: TransferEvidence, result: Result<TransferResponse, TransferError>) {
        self.evidence = evidence
        self.result = result
    }
}

/// Facts libcurl reports about a transfer, copied out before the handle is reused.
public struct TransferEvidence: Sendable {
    public var connectedIP: String?
    public var connectedPort: Int?
    /// `1.0`, `1.1`, `2` or `3`; nil when no response came.
    public var httpVersion: String?
    /// The peer's leaf certificate, read from the live TLS session (also on reused connections).
    public var certificate: CertificateSummary?
    /// What the verifier saw when certificate verification failed (the leaf and OpenSSL's reason).
    public var verification: VerificationFailure?
    /// The negotiated version and cipher and the chain, from the live session; nil without one.
    public var tls: TLSSession?
    /// Each phase's own duration in seconds (not curl's cumulative values).
    public var timings: Timings
    /// Connections this transfer opened (0 = it reused one).
    public var newConnections: Int

    public init(
        connectedIP: String? = nil, connectedPort: Int? = nil, httpVersion: String? = nil,
        certificate: CertificateSummary? = nil, verification: VerificationFailure? = nil, tls: TLSSession? = nil,
        timings: Timings = Timings(), newConnections: Int = 0
    ) {
        self.tls = tls
        self.connectedIP = connectedIP
        self.connectedPort = connectedPort
        self.httpVersion = httpVersion
        self.certificate = certificate
        self.verification = verification
        self.timings = timings
        self.newConnections = newConnections
    }
}

public struct TransferResponse: Sendable {
    public var status: Int
    /// Headers of the final response (not of 1xx interim ones), in order, names as sent.
    public var headers: [Header]
    /// The first `bodyCaptureLimit` bytes.
    public var body: Data
    /// Whole body length and SHA-256 (lower-case hex), counted while streaming; the digest is
    /// nil when the transfer did not ask for it (`TransferSpec.digestsBody`).
    public var bodyLength: Int
    public var bodySHA256: String?
    public var bodyTruncated: Bool { bodyLength > body.count }
    /// Header fields sent after the body (HTTP/2 trailers: gRPC's status), in order.
    public var trailers: [Header]

    public init(status: Int, headers: [Header], body: Data, bodyLength: Int, bodySHA256: String?, trailers: [Header] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength
        self.bodySHA256 = bodySHA256
        self.trailers = trailers
    }

    /// Values of a header, case-insensitively, in order.
    public func values(of name: String) -> [String] {
        headers.filter { HeaderName.equal($0.name, name) }.map(\.value)
    }

    /// The first value of header `name` (case-insensitive), nil when absent; no list is made.
    public func firstValue(of name: String) -> String? {
        // By index: each header is not copied out to be compared (asked for every result).
        for index in headers.indices where HeaderName.equal(headers[index].name, name) { return headers[index].value }
        return nil
    }
}
