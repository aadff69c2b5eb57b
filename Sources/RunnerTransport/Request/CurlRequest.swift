import Foundation
import RunnerVocabulary

/// How a `TransferSpec` is put to libcurl, decided as a value before any C call (so the
/// decisions are unit-tested without sockets). `EasyHandle` options are then set from it.
struct CurlRequest: Equatable {
    var url: String
    /// `url` is https (told once: the transfer asks again for its certificate).
    var isHTTPS: Bool
    /// HEAD: CURLOPT_NOBODY (libcurl then waits for no body).
    var noBody = false
    /// CURLOPT_CUSTOMREQUEST, when the method is not the one libcurl's mode implies.
    var customMethod: String?
    /// POSTFIELDSIZE_LARGE + COPYPOSTFIELDS for bytes; the read callback for a file.
    var body: RequestBody?
    /// CURLOPT_HTTPHEADER lines.
    var headerLines: [String] = []
    var connectTo: [String] = []
    /// The HTTP version, verification, CA and TLS limits.
    var lasting: LastingOptions
    /// The name OpenSSL checks during the handshake (trust override).
    var verifyName: String?
    var timeoutMilliseconds: Int
    var connectTimeoutMilliseconds: Int
    var connectOnly = false

    /// The options a transfer leaves set on its handle, which the next transfer with equal ones
    /// need not set again: everything `Transfer.configure` sets besides the URL, the timeouts,
    /// the connect-to line and the headers (which every transfer sets) and besides what a
    /// plain request must not inherit (a body, a method, HEAD's no-body, connect-only).
    struct LastingOptions: Equatable {
        var httpVersion: CurlHTTPVersion
        var verifyPeer = true
        var verifyHost = true
        var caFile: String?
        /// CURLOPT_SSLVERSION; nil leaves libcurl's default.
        var sslVersion: Int?
        /// The client's TLS limits (colon-separated): the cipher list, TLS 1.3 suites and groups
        /// the TLS hook sets on each new connection (`EasyHandle.setTLSLimits`).
        var cipherList: String?
        var tls13Ciphers: String?
        var curves: String?
        /// A connect-to line is set (a transfer without one after one with one must reset it).
        var connectsTo: Bool
    }

    /// The lasting options, when this request sets nothing else that lasts; nil when it does
    /// (a body, a method, HEAD's no-body, connect-only): the handle is reset after it.
    var onlyLastingOptions: LastingOptions? {
        guard !noBody, customMethod == nil, body == nil, !connectOnly else { return nil }
        return lasting
    }

    init(spec: TransferSpec) throws(TransferError) {
        url = spec.url
        let https = URLScheme(ofURL: spec.url) == .https
        isHTTPS = https
        lasting = LastingOptions(
            httpVersion: Self.httpVersion(spec.httpVersion, https: https), caFile: spec.tls.caFile,
            connectsTo: spec.connectTo != nil)
        timeoutMilliseconds = Self.milliseconds(spec.timeout)
        connectTimeoutMilliseconds = Self.milliseconds(spec.connectTimeout)
        connectOnly = spec.connectOnly
        let client = spec.tls.client
        if client.minVersion != nil || client.maxVersion != nil {
            lasting.sslVersion = sslVersionValue(min: client.minVersion, max: client.maxVersion)
        }
        if !client.cipherList.isEmpty { lasting.cipherList = client.cipherList }
        if !client.tls13CipherList.isEmpty { lasting.tls13Ciphers = client.tls13CipherList }
        if !client.curveList.isEmpty { lasting.curves = client.curveList }
        if let target = spec.connectTo { connectTo = [target] }

        if spec.tls.insecure {
            // The only way to skip verification; reports flag it.
            lasting.verifyPeer = false
            lasting.verifyHost = false
        } else if let name = spec.tls.verifyName {
            guard !name.isEmpty else {
                throw Self.rejected("trust override needs a verification name, got an empty one")
            }
            // Trust override: the URL host is the IP, so curl's own name check would check the
            // IP; OpenSSL checks `name` instead, during the handshake.
            lasting.verifyPeer = true
            lasting.verifyHost = false
            verifyName = name
        }

        switch (spec.method, spec.body) {
        case ("HEAD", _):
            // A HEAD response has no body; a request body makes no sense with it.
            noBody = true
        case ("GET", nil):
            break
        case ("POST", nil):
            // An explicit POST with an empty body (Content-Length: 0).
            body = .bytes(Data())
        case (let method, nil):
            customMethod = method
        case (let method, .bytes(let data)?):
            body = .bytes(data)
            if method != "POST" { customMethod = method }
        case (let method, .file(let path)?):
            body = .file(path: path)
            if method != "POST" { customMethod = method }
        }

        headerLines = try Self.headerLines(spec.headers, hasBody: body != nil)
    }

    /// `Name: value` lines as sent, plus what turns off libcurl's own additions: `Expect:`
    /// (no 100-continue round trip unless asked for) and, with a body, `Content-Type:` (no
    /// form-urlencoded default). An empty value is sent as such (`Name;` in libcurl's syntax).
    static func headerLines(_ headers: [Header], hasBody: Bool) throws(TransferError) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(headers.count + 2)
        var hasExpect = false
        var hasContentType = false
        for header in headers {
            let (name, value) = (header.name, header.value)
            guard !name.isEmpty, !Self.hasSeparator(name) else {
                throw rejected("invalid header name '\(name)'")
            }
            guard !Self.hasLineBreak(value) else {
                throw rejected("header '\(name)' has a line break in its value")
            }
            if HeaderName.equal(name, "Expect") { hasExpect = true }
            if HeaderName.equal(name, "Content-Type") { hasContentType = true }
            lines.append(value.isEmpty ? String(concatenating: name, ";") : String(concatenating: name, ": ", value))
        }
        if !hasExpect { lines.append("Expect:") }
        if hasBody && !hasContentType { lines.append("Content-Type:") }
        return lines
    }

    /// A colon, whitespace or a line break: not allowed in a header name. ASCII is checked on
    /// bytes; only other text pays for Character classification.
    private static func hasSeparator(_ name: String) -> Bool {
        if let found = inASCII(name, { $0 == UInt8(ascii: ":") || $0 <= 0x20 || $0 == 0x7F }) { return found }
        return name.contains { $0 == ":" || $0.isWhitespace || $0.isNewline }
    }

    private static func hasLineBreak(_ value: String) -> Bool {
        if let found = inASCII(value, { $0 == 0x0A || $0 == 0x0B || $0 == 0x0C || $0 == 0x0D }) { return found }
        return value.contains(where: \.isNewline)
    }

    /// Whether an ASCII `text` has a byte that is `wanted`, read in one pass over its bytes in
    /// place (a token and a cookie make long values); nil when it is not ASCII (or not stored
    /// as contiguous UTF-8), for Character classification to answer.
    private static func inASCII(_ text: String, _ wanted: (UInt8) -> Bool) -> Bool? {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var found = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if wanted(byte) { found = true }
            }
            return found
        }
        return found ?? nil
    }

    /// .auto: h2 by ALPN for https, 1.1 for http. .http2: ALPN for https, prior knowledge for http.
    static func httpVersion(_ version: HTTPVersion, https: Bool) -> CurlHTTPVersion {
        switch version {
        case .http1_1: .http1_1
        case .http2: https ? .http2OverTLS : .http2PriorKnowledge
        case .auto: https ? .http2OverTLS : .http1_1
        }
    }

    /// Whole milliseconds, rounded up and at least 1: libcurl reads 0 as "no timeout".
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow || whole > Int64(Int32.max) { return Int(Int32.max) }
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(whole + fraction))
    }

    private static func rejected(_ message: String) -> TransferError {
        TransferError(kind: .io, message: "request not sent: " + message, curlCode: CurlCode.badFunctionArgument)
    }
}
