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
        if let recorded = hop.reproduction { return bytes.append(utf8: redactor.redact(recorded)) }
        let route = hop.connection
        let strategy = route.strategy
        let settings = evidence.connection
        let https = route.urlSent.utf8.starts(with: "https://".utf8)
        // Trust override checks the name without SNI: openssl does that handshake first (a hop
        // from a report read back, without the name, is sent as header-only would be).
        var verifiesWithoutSNI = false
        if strategy == .trustOverride, !evidence.insecure, let name = route.tls.verifyName, let ip = route.pinnedIP {
            verifiesWithoutSNI = true
            bytes.append("openssl s_client -connect ")
            ShellWord.append(Self.endpoint(ip: ip, port: Self.port(of: route.urlSent)), redactor: redactor, to: &bytes)
            bytes.append(" -noservername -verify_hostname ")
            ShellWord.append(name, redactor: redactor, to: &bytes)
            bytes.append(" -verify_return_error")
            if let caFile = route.tls.caFile {
                bytes.append(" -CAfile ")
                ShellWord.append(caFile, redactor: redactor, to: &bytes)
            }
            if !route.tls.client.isDefault { limits(route.tls.client, .openssl, to: &bytes) }
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
        } else if let caFile = route.tls.caFile, https {
            bytes.append(" --cacert ")
            ShellWord.append(caFile, redactor: redactor, to: &bytes)
        }
        if let settings {
            bytes.append(" --connect-timeout ")
            bytes.append(utf8: Self.seconds(min(settings.connectTimeout, settings.timeout)))
            bytes.append(" --max-time ")
            bytes.append(utf8: Self.seconds(settings.timeout))
        }
        if !route.tls.client.isDefault, https { limits(route.tls.client, .curl, to: &bytes) }
        if let connectTo = route.connectTo {
            bytes.append(" --connect-to ")
            ShellWord.append(connectTo, redactor: redactor, to: &bytes)
        }
        method(hop, redactor: redactor, to: &bytes)
        headers(hop, strategy: strategy, redactor: redactor, to: &bytes)
        body(hop, redactor: redactor, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        ShellWord.append(route.urlSent, redactor: redactor, to: &bytes)
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
    private static func method(_ hop: HopEvidence, redactor: Redactor, to bytes: inout ByteBuffer) {
        switch (hop.method, hop.requestBody) {
        case ("HEAD", _):
            bytes.append(" -I")
        case ("GET", nil), ("POST", _):
            break
        default:
            bytes.append(" -X ")
            ShellWord.append(hop.method, redactor: redactor, to: &bytes)
        }
    }

    /// The strategy's `Host` (header-only, trust-override), then the request's own headers, then
    /// what turns off curl's additions the runner does not make: `Expect:` and, with a body,
    /// `Content-Type:`.
    private static func headers(_ hop: HopEvidence, strategy: StrategyKind, redactor: Redactor, to bytes: inout ByteBuffer) {
        var hasContentType = false
        var hasExpect = false
        var hasHost = false
        for header in hop.requestHeaders {
            if HeaderName.equal(header.name, "Content-Type") { hasContentType = true }
            if HeaderName.equal(header.name, "Expect") { hasExpect = true }
            if HeaderName.equal(header.name, "Host") { hasHost = true }
        }
        if !hasHost, hop.connection.pinnedIP != nil, strategy == .headerOnly || strategy == .trustOverride {
            bytes.append(" -H ")
            ShellWord.append("Host: " + hop.connection.hostHeader, redactor: redactor, to: &bytes)
        }
        for header in hop.requestHeaders {
            bytes.append(" -H ")
            ShellWord.append(header.value.isEmpty ? header.name + ";" : header.name + ": " + header.value, redactor: redactor, to: &bytes)
        }
        let hasBody = hop.method == "POST" || (hop.requestBody != nil && hop.method != "HEAD")
        if hasBody, !hasExpect { bytes.append(" -H 'Expect:'") }
        if hasBody, !hasContentType { bytes.append(" -H 'Content-Type:'") }
    }

    /// `--data-binary` with the bytes (a file by its path); POST without a body sends an empty
    /// one, as the runner does.
    private static func body(_ hop: HopEvidence, redactor: Redactor, to bytes: inout ByteBuffer) {
        guard hop.method != "HEAD" else { return }
        switch hop.requestBody {
        case nil:
            if hop.method == "POST" { bytes.append(" --data-binary ''") }
        case .file(let path)?:
            bytes.append(" --data-binary @")
            ShellWord.append(path, redactor: redactor, to: &bytes)
        case .bytes(let data)?:
            bytes.append(" --data-binary ")
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
        let https = url.utf8.starts(with: "https://".utf8)
        guard let schemeEnd = url.range(of: "://") else { return https ? 443 : 80 }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // After the last ':' that is not inside an IPv6 literal's brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]"),
            let port = Int(authority[authority.index(after: colon)...])
        {
            return port
        }
        return https ? 443 : 80
    }

    /// Seconds as curl reads them: `10`, `0.5`, `2.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = max(1, Int((Double(duration.components.seconds) * 1000
            + Double(duration.components.attoseconds) / 1e15).rounded(.up)))
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        guard fraction > 0 else { return String(whole) }
        var decimals = String(fraction)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals)"
    }
}
