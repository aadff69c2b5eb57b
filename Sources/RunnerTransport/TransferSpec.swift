import Foundation

/// One HTTP request for libcurl to carry out, fully decided: the strategy layer has already
/// chosen the URL, the pin and the verification name. Transport does exactly this, nothing more.
public struct TransferSpec: Sendable {
    /// What libcurl gets as the URL (an IP URL under header-only and trust-override).
    public var url: String
    public var method: String
    /// Sent as given, in order; `Host` among them when the strategy sets it.
    public var headers: [(name: String, value: String)]
    public var body: Body?
    /// `HOST:PORT:CONNECT-HOST:CONNECT-PORT` (curl's `--connect-to`); IPv6 in brackets.
    public var connectTo: String?
    public var tls: TLSSettings
    public var httpVersion: HTTPVersion
    /// Whole transfer; always honoured.
    public var timeout: Duration
    public var connectTimeout: Duration
    /// Connection identity: transfers with different keys never share a connection.
    public var poolKey: PoolKey
    /// Response body bytes kept in memory (the rest is only counted and hashed).
    public var bodyCaptureLimit: Int
    /// Only connect and handshake (a diagnosis probe); no request is sent.
    public var connectOnly: Bool

    public init(
        url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
        body: Body? = nil, connectTo: String? = nil, tls: TLSSettings = TLSSettings(),
        httpVersion: HTTPVersion = .auto, timeout: Duration = .seconds(10),
        connectTimeout: Duration = .seconds(3), poolKey: PoolKey, bodyCaptureLimit: Int = 1 << 20,
        connectOnly: Bool = false
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
        self.connectOnly = connectOnly
    }

    public enum Body: Sendable {
        case bytes(Data)
        /// Streamed from disk, never read whole.
        case file(path: String)
    }

    public enum HTTPVersion: Sendable {
        case http1_1
        /// h2 over ALPN for https, prior knowledge for http.
        case http2
        /// https: ALPN decides (h2 preferred); http: 1.1.
        case auto
    }

    public struct TLSSettings: Sendable, Hashable {
        /// Extra trust anchors (PEM file); nil = the system store.
        public var caFile: String?
        /// Skip all verification (`insecure: true`).
        public var insecure: Bool
        /// Trust override: verify the certificate's name against this host during the
        /// handshake (OpenSSL's own check), instead of against the URL host.
        public var verifyName: String?

        public init(caFile: String? = nil, insecure: Bool = false, verifyName: String? = nil) {
            self.caFile = caFile
            self.insecure = insecure
            self.verifyName = verifyName
        }
    }
}

/// What came of a transfer: evidence always, and a response or a failure.
public struct TransferOutcome: Sendable {
    public var evidence: TransferEvidence
    public var result: Result<TransferResponse, TransferFailure>

    public init(evidence: TransferEvidence, result: Result<TransferResponse, TransferFailure>) {
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
    public var certificate: PeerCertificate?
    /// What the verifier saw when certificate verification failed (the leaf and OpenSSL's reason).
    public var verification: VerificationFailure?
    /// Each phase's own duration in seconds (not curl's cumulative values).
    public var timings: PhaseTimings
    /// Connections this transfer opened (0 = it reused one).
    public var newConnections: Int

    public init(
        connectedIP: String? = nil, connectedPort: Int? = nil, httpVersion: String? = nil,
        certificate: PeerCertificate? = nil, verification: VerificationFailure? = nil,
        timings: PhaseTimings = PhaseTimings(), newConnections: Int = 0
    ) {
        self.connectedIP = connectedIP
        self.connectedPort = connectedPort
        self.httpVersion = httpVersion
        self.certificate = certificate
        self.verification = verification
        self.timings = timings
        self.newConnections = newConnections
    }
}

public struct PhaseTimings: Sendable, Equatable {
    public var resolve: Double?
    public var connect: Double?
    public var tls: Double?
    public var firstByte: Double?
    public var total: Double?

    public init(resolve: Double? = nil, connect: Double? = nil, tls: Double? = nil, firstByte: Double? = nil, total: Double? = nil) {
        self.resolve = resolve
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}

public struct PeerCertificate: Sendable, Equatable {
    /// RFC 2253 form, e.g. `CN=api.lab.test,O=runner lab`.
    public var subject: String
    public var issuer: String
    public var notBefore: Date?
    public var notAfter: Date?
    /// DNS names and IP addresses from subjectAltName.
    public var subjectAltNames: [String]

    public init(subject: String, issuer: String, notBefore: Date?, notAfter: Date?, subjectAltNames: [String]) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectAltNames = subjectAltNames
    }
}

/// The first certificate-verification error OpenSSL reported, and the leaf it was about.
public struct VerificationFailure: Sendable, Equatable {
    /// OpenSSL's X509_V_ERR code (`X509VerifyCode`) and its text, e.g. "hostname mismatch",
    /// "certificate has expired".
    public var code: Int
    public var reason: String
    public var leaf: PeerCertificate?

    public init(code: Int, reason: String, leaf: PeerCertificate?) {
        self.code = code
        self.reason = reason
        self.leaf = leaf
    }

    public var isHostnameMismatch: Bool { code == X509VerifyCode.hostnameMismatch }
    public var isExpired: Bool { code == X509VerifyCode.certHasExpired }
}

public struct TransferResponse: Sendable {
    public var status: Int
    /// Headers of the final response (not of 1xx interim ones), in order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The first `bodyCaptureLimit` bytes.
    public var body: Data
    /// Whole body length and SHA-256 (lower-case hex), counted while streaming.
    public var bodyLength: Int
    public var bodySHA256: String
    public var bodyTruncated: Bool { bodyLength > body.count }

    public init(status: Int, headers: [(name: String, value: String)], body: Data, bodyLength: Int, bodySHA256: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength
        self.bodySHA256 = bodySHA256
    }

    /// Values of a header, case-insensitively, in order.
    public func values(of name: String) -> [String] {
        headers.filter { HeaderName.equal($0.name, name) }.map(\.value)
    }
}

/// Why libcurl could not complete a transfer.
public struct TransferFailure: Error, Sendable {
    public enum Kind: String, Sendable {
        case resolve, connect, tls, timeout, http, io
    }

    public var kind: Kind
    /// libcurl's CURLcode, and its error buffer (or `curl_easy_strerror`).
    public var curlCode: Int
    public var message: String

    public init(kind: Kind, curlCode: Int, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }
}
