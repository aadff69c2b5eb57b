import Foundation
import RunnerResults
import RunnerVocabulary

/// A hop's request as one bash command line that sends it again on the same lane: the same
/// IP, `Host`, SNI and trust choice, method, headers, body, HTTP version, CA and time limits.
///
/// - sni-resolve (and `system` when it asked its own resolver): `--connect-to HOST:PORT:IP:PORT`,
///   so the name stays in the URL, SNI and certificate check.
/// - header-only: the IP in the URL and the host in `Host:`.
/// - trust-override: curl cannot check a certificate against a name other than the URL's
///   without sending that name as SNI, so `openssl s_client -noservername -verify_hostname HOST`
///   checks the handshake first, and only then does curl send the request (with `-k`: the
///   check is done). A trailing comment says so.
///
/// curl adds `User-Agent: curl/…` and `Accept: */*`, which the runner does not send; nothing
/// else differs.
enum CurlCommand {
    /// The command for `hop` of `evidence`, appended to `bytes` (no newline).
    static func write(_ hop: HopEvidence, of evidence: Evidence, redactor: Redactor, to bytes: inout ByteBuffer) {
        var timeLimits = CurlTimeLimits()
        withUnsafePointer(to: hop) { write(hopAt: $0, of: evidence, redactor: redactor, timeLimits: &timeLimits, to: &bytes) }
    }

    /// The same for the hop at `hop` (an element of the evidence's hops, read in place: a hop
    /// handed over as a value is copied out of its array, a retain and a release for each of
    /// its two dozen references, more than the rest of the line costs), the time limits'
    /// options written through `timeLimits`, which a report keeps from line to line.
    static func write(
        hopAt hop: UnsafePointer<HopEvidence>, of evidence: Evidence, redactor: Redactor, timeLimits: inout CurlTimeLimits,
        to bytes: inout ByteBuffer
    ) {
        if let recorded = hop.pointee.reproduction { return bytes.append(utf8: redactor.redact(recorded)) }
        let strategy = hop.pointee.connection.strategy
        let settings = evidence.connection
        // Each text read once: a string read through the pointer is retained and released.
        let url = hop.pointee.connection.urlSent
        let method = hop.pointee.method
        let https = URLScheme(ofURL: url) == .https
        // Trust override checks the name without SNI: openssl does that handshake first (a hop
        // from a report read back, without the name, is sent as header-only would be).
        var verifiesWithoutSNI = false
        if strategy == .trustOverride, !evidence.insecure, let name = hop.pointee.connection.tls.verifyName,
            let ip = hop.pointee.connection.pinnedIP
        {
            verifiesWithoutSNI = true
            bytes.append("openssl s_client -connect ")
            ShellWord.append(Self.endpoint(ip: ip, port: Self.port(of: url)), redactor: redactor, to: &bytes)
            bytes.append(" -noservername -verify_hostname ")
            ShellWord.append(name, redactor: redactor, to: &bytes)
            bytes.append(" -verify_return_error")
            if let caFile = hop.pointee.connection.tls.caFile {
                bytes.append(" -CAfile ")
                ShellWord.append(caFile, redactor: redactor, to: &bytes)
            }
            if !hop.pointee.connection.tls.client.isDefault { limits(hop.pointee.connection.tls.client, .openssl, to: &bytes) }
            bytes.append(" -brief </dev/null && ")
        }
        bytes.append("curl -g -sS -i")
        if let settings {
            switch (settings.http, https) {
            case (.http1_1, _): bytes.append(" --http1.1")
            case (.http2, true): bytes.append(" --http2")
            case (.http2, false): bytes.append(" --http2-prior-knowledge")
            case (.auto, _): break
            }
        }
        if evidence.insecure || verifiesWithoutSNI {
            bytes.append(" -k")
        } else if let caFile = hop.pointee.connection.tls.caFile, https {
            bytes.append(" --cacert ")
            ShellWord.append(caFile, redactor: redactor, to: &bytes)
        }
        if let settings { timeLimits.append(settings, to: &bytes) }
        if !hop.pointee.connection.tls.client.isDefault, https { limits(hop.pointee.connection.tls.client, .curl, to: &bytes) }
        if let connectTo = hop.pointee.connection.connectTo {
            bytes.append(" --connect-to ")
            ShellWord.append(connectTo, redactor: redactor, to: &bytes)
        }
        let body = method == "HEAD" ? nil : hop.pointee.requestBody
        Self.method(method, hasBody: body != nil, redactor: redactor, to: &bytes)
        headers(hop, method: method, hasBody: body != nil, strategy: strategy, redactor: redactor, to: &bytes)
        Self.body(body, method: method, redactor: redactor, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        ShellWord.append(url, redactor: redactor, to: &bytes)
        if verifiesWithoutSNI {
            bytes.append("  # trust-override: openssl checks the certificate against the host without SNI; curl cannot, so -k after that check")
        }
    }

    /// The command as a string (the evidence of a result that did not pass).
    static func line(_ hop: HopEvidence, of evidence: Evidence, redactor: Redactor) -> String {
        var bytes = ByteBuffer(capacity: 512)
        write(hop, of: evidence, redactor: redactor, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// How a tool spells the client's TLS options: curl's, or openssl s_client's.
    private struct LimitOptions {
        var minVersion: StaticString
        var maxVersion: StaticString
        var version: @Sendable (TLSVersion) -> String
        var ciphers: StaticString
        var tls13Ciphers: StaticString
        var curves: StaticString

        static let curl = LimitOptions(
            minVersion: " --tlsv", maxVersion: " --tls-max ", version: { $0.rawValue }, ciphers: " --ciphers ",
            tls13Ciphers: " --tls13-ciphers ", curves: " --curves ")
        /// `-min_protocol TLSv1.2`; openssl names 1.0 `TLSv1`.
        static let openssl = LimitOptions(
            minVersion: " -min_protocol ", maxVersion: " -max_protocol ", version: { $0 == .v1_0 ? "TLSv1" : "TLSv" + $0.rawValue },
            ciphers: " -cipher ", tls13Ciphers: " -ciphersuites ", curves: " -groups ")
    }

    /// What the client offered (`tls:`, a profile already folded in), spelled for a tool.
    private static func limits(_ tls: ClientTLS, _ options: LimitOptions, to bytes: inout ByteBuffer) {
        if let minVersion = tls.minVersion {
            bytes.append(options.minVersion)
            bytes.append(utf8: options.version(minVersion))
        }
        if let maxVersion = tls.maxVersion {
            bytes.append(options.maxVersion)
            bytes.append(utf8: options.version(maxVersion))
        }
        for (option, list) in [(options.ciphers, tls.cipherList), (options.tls13Ciphers, tls.tls13CipherList), (options.curves, tls.curveList)]
        where !list.isEmpty {
            bytes.append(option)
            ShellWord.appendQuoted(list, to: &bytes)
        }
    }

    /// The method as libcurl was told it (`CurlRequest`): HEAD as `-I`; POST implied by a body
    /// (an empty one when there is none); anything else as `-X`.
    private static func method(_ method: String, hasBody: Bool, redactor: Redactor, to bytes: inout ByteBuffer) {
        if method == "HEAD" {
            bytes.append(" -I")
        } else if !(method == "POST" || (method == "GET" && !hasBody)) {
            bytes.append(" -X ")
            ShellWord.append(method, redactor: redactor, to: &bytes)
        }
    }

    /// The strategy's `Host` (header-only, trust-override), then the request's own headers, then
    /// what turns off curl's additions the runner does not make: `Expect:` and, with a body,
    /// `Content-Type:`.
    private static func headers(
        _ hop: UnsafePointer<HopEvidence>, method: String, hasBody: Bool, strategy: StrategyKind, redactor: Redactor,
        to bytes: inout ByteBuffer
    ) {
        var hasContentType = false
        var hasExpect = false
        var hasHost = false
        // Read in place, through the array's buffer: iterating the array copies each header.
        hop.pointee.requestHeaders.withUnsafeBufferPointer { headers in
            for index in headers.indices {
                // The name's length picks the one name it could be: one comparison a header.
                let name = headers[index].name
                switch name.utf8.count {
                case 4: hasHost = hasHost || HeaderName.equal(name, "Host")
                case 6: hasExpect = hasExpect || HeaderName.equal(name, "Expect")
                case 12: hasContentType = hasContentType || HeaderName.equal(name, "Content-Type")
                default: break
                }
            }
            if !hasHost, hop.pointee.connection.pinnedIP != nil, strategy == .headerOnly || strategy == .trustOverride {
                bytes.append(" -H ")
                ShellWord.append(literal: "Host", ": ", hop.pointee.connection.hostHeader, redactor: redactor, to: &bytes)
            }
            for index in headers.indices {
                bytes.append(" -H ")
                if headers[index].value.isEmpty {
                    ShellWord.append(headers[index].name, ";", "", redactor: redactor, to: &bytes)
                } else {
                    ShellWord.append(headers[index].name, ": ", headers[index].value, redactor: redactor, to: &bytes)
                }
            }
        }
        let sendsBody = method == "POST" || hasBody
        if sendsBody, !hasExpect { bytes.append(" -H 'Expect:'") }
        if sendsBody, !hasContentType { bytes.append(" -H 'Content-Type:'") }
    }

    /// `--data-binary` with the bytes (a file by its path); POST without a body sends an empty
    /// one, as the runner does.
    private static func body(_ body: RequestBody?, method: String, redactor: Redactor, to bytes: inout ByteBuffer) {
        guard method != "HEAD" else { return }
        switch body {
        case nil:
            if method == "POST" { bytes.append(" --data-binary ''") }
        case .file(let path)?:
            bytes.append(" --data-binary @")
            ShellWord.append(path, redactor: redactor, to: &bytes)
        case .bytes(let data)?:
            bytes.append(" --data-binary ")
            // Printable text with nothing to mask (a JSON or form body, nearly always): quoted
            // from the bytes, with no string made for it. ASCII is its own UTF-8.
            if redactor.isEmpty, data.withUnsafeBytes({ ShellWord.appendQuoted(asciiText: $0, to: &bytes) }) { return }
            if !data.contains(0), let text = String(data: data, encoding: .utf8) {
                ShellWord.append(text, redactor: redactor, to: &bytes)
            } else if redactor.forms.contains(where: { data.range(of: Data($0.utf8)) != nil }) {
                // Bytes an argument cannot carry (a NUL), with a secret in them: masked whole.
                ShellWord.appendQuoted(Redactor.mask, to: &bytes)
            } else {
                // A NUL cannot be in an argument: printf makes the bytes, curl reads them.
                bytes.append("@<(printf '")
                for byte in data { ShellWord.appendHexEscape(byte, to: &bytes) }
                bytes.append("')")
            }
        }
    }

    /// `IP:PORT`, `[IPv6]:PORT`.
    private static func endpoint(ip: String, port: Int) -> String {
        ip.utf8.contains(UInt8(ascii: ":")) ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// The port of a URL the runner built (`scheme://IP[:PORT]/…`), or the scheme's.
    static func port(of url: String) -> Int {
        let defaultPort = URLScheme(ofURL: url)?.defaultPort ?? 80
        guard let schemeEnd = url.range(of: "://") else { return defaultPort }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // After the last ':' that is not inside an IPv6 literal's brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]"),
            let port = Int(authority[authority.index(after: colon)...])
        {
            return port
        }
        return defaultPort
    }

    /// Seconds as curl reads them: `10`, `0.5`, `2.25`.
    static func seconds(_ duration: Duration) -> String {
        var bytes = ByteBuffer(capacity: 32)
        seconds(duration, to: &bytes)
        return bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The same, appended to `bytes`: whole seconds, then up to three decimals without
    /// trailing zeros (milliseconds, rounded up, at least one).
    static func seconds(_ duration: Duration, to bytes: inout ByteBuffer) {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(1, Int((Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(.up)))
        ByteText.digits(UInt64(milliseconds / 1000), to: &bytes)
        let fraction = milliseconds % 1000
        guard fraction > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        let (tenths, hundredths, thousandths) = (fraction / 100, fraction / 10 % 10, fraction % 10)
        bytes.append(UInt8(ascii: "0") + UInt8(tenths))
        if hundredths != 0 || thousandths != 0 { bytes.append(UInt8(ascii: "0") + UInt8(hundredths)) }
        if thousandths != 0 { bytes.append(UInt8(ascii: "0") + UInt8(thousandths)) }
    }
}
