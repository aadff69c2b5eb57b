import Foundation
import RunnerVocabulary

/// One scenario with the plan's defaults merged in.
///
/// A value with its fields in one shared box, copied only when changed: a scenario is handed
/// from the plan to each of its results, their lookups and their state machines, and a copy
/// of a dozen fields (strings, lists, the request, the expectations) at every step cost about
/// a tenth of a result's work.
public struct Scenario: Sendable, Equatable {
    public var name: String {
        _read { yield storage.fields.name }
        _modify { yield &uniqueStorage().fields.name }
    }
    public var location: SourceLocation {
        _read { yield storage.fields.location }
        _modify { yield &uniqueStorage().fields.location }
    }
    public var tags: [String] {
        _read { yield storage.fields.tags }
        _modify { yield &uniqueStorage().fields.tags }
    }
    /// The domain map this scenario takes IPs from (`system` is the implicit resolver map).
    public var domainMap: String {
        _read { yield storage.fields.domainMap }
        _modify { yield &uniqueStorage().fields.domainMap }
    }
    /// One result per strategy (and per IP with `ips: all`).
    public var strategies: [StrategyKind] {
        _read { yield storage.fields.strategies }
        _modify { yield &uniqueStorage().fields.strategies }
    }
    public var ips: IPSelection {
        _read { yield storage.fields.ips }
        _modify { yield &uniqueStorage().fields.ips }
    }
    public var ipVersion: IPVersionPreference {
        _read { yield storage.fields.ipVersion }
        _modify { yield &uniqueStorage().fields.ipVersion }
    }
    public var settings: TransferSettings {
        _read { yield storage.fields.settings }
        _modify { yield &uniqueStorage().fields.settings }
    }
    public var request: RequestSpec {
        _read { yield storage.fields.request }
        _modify { yield &uniqueStorage().fields.request }
    }
    public var expect: Expectations {
        _read { yield storage.fields.expect }
        _modify { yield &uniqueStorage().fields.expect }
    }
    /// The scenarios whose passing results this one runs after (`after:`), once per such result.
    public var after: [ScenarioReference] {
        _read { yield storage.fields.after }
        _modify { yield &uniqueStorage().fields.after }
    }
    /// The values taken from each of this scenario's results for the scenarios after it.
    public var captures: [Capture] {
        _read { yield storage.fields.captures }
        _modify { yield &uniqueStorage().fields.captures }
    }
    /// The apps whose trust rules each result is checked against (`app:`).
    public var apps: [AppDefinition] {
        _read { yield storage.fields.apps }
        _modify { yield &uniqueStorage().fields.apps }
    }
    /// Where this scenario's request takes captured values (`${capture:NAME}`).
    public var captureUses: [CaptureUse] {
        _read { yield storage.fields.captureUses }
        _modify { yield &uniqueStorage().fields.captureUses }
    }

    private var storage: Storage

    /// The fields, in a box shared by copies; changed only when not shared (`uniqueStorage`
    /// copies it first), so no two accesses to it can overlap: its dynamic exclusivity checks,
    /// which a scenario's every field read would pay, are off.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private struct Fields {
        var name: String
        var location: SourceLocation
        var tags: [String]
        var domainMap: String
        var strategies: [StrategyKind]
        var ips: IPSelection
        var ipVersion: IPVersionPreference
        var settings: TransferSettings
        var request: RequestSpec
        var expect: Expectations
        var after: [ScenarioReference] = []
        var captures: [Capture] = []
        var captureUses: [CaptureUse] = []
        var apps: [AppDefinition] = []
    }

    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    public init(
        name: String, location: SourceLocation, tags: [String], domainMap: String,
        strategies: [StrategyKind], ips: IPSelection, ipVersion: IPVersionPreference,
        settings: TransferSettings, request: RequestSpec, expect: Expectations
    ) {
        storage = Storage(Fields(
            name: name, location: location, tags: tags, domainMap: domainMap, strategies: strategies, ips: ips,
            ipVersion: ipVersion, settings: settings, request: request, expect: expect))
    }

    public static func == (lhs: Scenario, rhs: Scenario) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.name == rhs.name && lhs.location == rhs.location && lhs.tags == rhs.tags
            && lhs.domainMap == rhs.domainMap && lhs.strategies == rhs.strategies && lhs.ips == rhs.ips
            && lhs.ipVersion == rhs.ipVersion && lhs.settings == rhs.settings && lhs.request == rhs.request
            && lhs.expect == rhs.expect && lhs.after == rhs.after && lhs.captures == rhs.captures
            && lhs.captureUses == rhs.captureUses && lhs.apps == rhs.apps
    }
}

/// A scenario named by another (`after:`), with where the name was written.
public struct ScenarioReference: Sendable, Equatable {
    public var name: String
    public var location: SourceLocation

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

public enum IPSelection: String, Sendable, Equatable {
    case first
    case all
}

public enum IPVersionPreference: String, Sendable, Equatable {
    case v4 = "4"
    case v6 = "6"
    case any
}

/// Settings from `defaults:` that a scenario (or its request) may override.
public struct TransferSettings: Sendable, Equatable {
    /// Whole transfer, redirects included.
    public var timeout: Duration = .seconds(10)
    public var connectTimeout: Duration = .seconds(3)
    public var http: HTTPVersion = .auto
    public var followRedirects: Bool = true
    public var maxRedirects: Int = 10
    /// Extra trust anchors (PEM), resolved against the plan's directory; nil = system store.
    public var caFile: String? = nil
    /// The only way to skip certificate verification; every report flags such a result.
    public var insecure: Bool = false
    /// Bytes of the response body kept for `contains`/`matches`/`json`.
    public var maxBody: Int = 1 << 20
    /// Extra runs of a result that failed or errored; one that then passes is flaky.
    public var retries: Int = 0
    /// The DNS resolver asked where the machine's would be (`resolver:`).
    public var resolver: ResolverChoice = .system
    /// What the client offers and accepts in the handshake (`tls:`, a profile folded in).
    public var tls = ClientTLS()
    /// A bound that catches a typo (`retries: 1000`) before it turns one outage into hours.
    public static let maxRetries = 10

    public init() {}
}

/// The request as the plan writes it: the URL keeps the original host.
public struct RequestSpec: Sendable, Equatable {
    public var method: String
    public var url: PlanURL
    /// Default headers first, then the request's own (a later name replaces an earlier one).
    public var headers: [Header]
    public var body: RequestBody?
    /// Set when the request is a gRPC call (`request.grpc`): `method`, the URL's path, the
    /// headers and the body are the call's.
    public var grpc: GRPCCall?

    public init(method: String, url: PlanURL, headers: [Header], body: RequestBody?, grpc: GRPCCall? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.grpc = grpc
    }
}

/// An absolute http(s) URL split into the parts the strategies rewrite.
public struct PlanURL: Sendable, Equatable, CustomStringConvertible {
    public typealias Scheme = URLScheme

    public let scheme: Scheme
    /// The host without brackets (an IPv6 literal is stored bare).
    public let host: String
    /// The port written in the URL, if any.
    public let explicitPort: Int?
    /// Path, query and nothing else; always starts with `/`.
    public let pathAndQuery: String
    /// `host` or `host:port` when the port is not the scheme's default (the `Host:` header value).
    public let authority: String
    /// The whole URL as text.
    public let description: String

    public init(scheme: Scheme, host: String, explicitPort: Int?, pathAndQuery: String) {
        // Made once: every request reads them several times (URL sent, Host, evidence).
        let port = explicitPort ?? scheme.defaultPort
        let portSuffix = port == scheme.defaultPort ? "" : ":" + String(port)
        let authority = host.utf8.contains(UInt8(ascii: ":"))
            ? String(concatenating: "[", host, "]", portSuffix) : String(concatenating: host, portSuffix)
        self.init(
            scheme: scheme, host: host, explicitPort: explicitPort, pathAndQuery: pathAndQuery, authority: authority,
            description: String(concatenating: scheme.rawValue, "://", authority, pathAndQuery))
    }

    /// The parts with the texts made of them, when the caller already holds those texts.
    private init(scheme: Scheme, host: String, explicitPort: Int?, pathAndQuery: String, authority: String, description: String) {
        self.scheme = scheme
        self.host = host
        self.explicitPort = explicitPort
        self.pathAndQuery = pathAndQuery
        self.authority = authority
        self.description = description
    }

    public var port: Int { explicitPort ?? scheme.defaultPort }

    /// Parses an absolute http or https URL; nil when it is not one.
    public static func parse(_ text: String) -> PlanURL? {
        if let url = parseSimple(text) { return url }
        return parseWithComponents(text)
    }

    /// The general case, by `URLComponents` (several microseconds a URL). The path and query
    /// are percent-encoded by `PercentEncoding` first, so what is sent — and the forms the
    /// `Redactor` masks a secret in — come from one encoder, not from Foundation's choice.
    static func parseWithComponents(_ text: String) -> PlanURL? {
        guard let components = URLComponents(string: encodingPathAndQuery(of: text)),
              let schemeText = components.scheme?.lowercased(),
              let scheme = Scheme(rawValue: schemeText),
              var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let port = components.port, !(1...65535).contains(port) { return nil }
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }
        return PlanURL(scheme: scheme, host: host.lowercased(), explicitPort: components.port, pathAndQuery: path)
    }

    /// `text` with its path and query (after the authority, before any `#`) percent-encoded
    /// where RFC 3986 does not allow a byte there; the scheme and authority as they are.
    static func encodingPathAndQuery(of text: String) -> String {
        guard let authorityStart = text.range(of: "://")?.upperBound else { return text }
        let rest = text[authorityStart...]
        guard let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return text }
        let fragmentStart = text[pathStart...].firstIndex(of: "#") ?? text.endIndex
        let pathAndQuery = String(text[pathStart..<fragmentStart])
        guard !PercentEncoding.isEncoded(pathAndQuery, keeping: .pathAndQuery) else { return text }
        return String(text[..<pathStart]) + PercentEncoding.encode(pathAndQuery, keeping: .pathAndQuery)
            + text[fragmentStart...]
    }

    /// The URLs plans almost always hold, parsed by hand: `http(s)://host[:port][/path][?query]`
    /// with a lower-case scheme, a host of letters, digits, `.` and `-`, a port of 1...65535
    /// without leading zeros, and a path and query of characters RFC 3986 allows unencoded.
    /// Nil for anything else (the general parser decides); the result equals that parser's.
    static func parseSimple(_ text: String) -> PlanURL? {
        return text.withUTF8Bytes { bytes -> PlanURL? in
            guard bytes.count >= 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
                  bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
            else { return nil }
            let scheme: Scheme = bytes[4] == UInt8(ascii: "s") ? .https : .http
            var index = scheme == .https ? 5 : 4
            guard index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                  bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            index += 3
            let hostStart = index
            var hostHasUppercase = false
            while index < bytes.count, URLBytes.isHostByte(bytes[index]) {
                if bytes[index] >= UInt8(ascii: "A"), bytes[index] <= UInt8(ascii: "Z") { hostHasUppercase = true }
                index += 1
            }
            let hostEnd = index
            // URLComponents shows a punycode label (`xn--…`) decoded: leave those to it.
            guard hostEnd > hostStart, !URLBytes.containsPunycode(UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]))
            else { return nil }
            var port: Int?
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let portStart = index
                var value = 0
                while index < bytes.count, index - portStart < 5, URLBytes.isDigit(bytes[index]) {
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                guard index > portStart, bytes[portStart] != UInt8(ascii: "0"), value <= 65535 else { return nil }
                port = value
            }
            let pathStart = index
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
            else { return nil }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    // Only well-formed escapes: anything else the general parser would re-encode.
                    guard index + 2 < bytes.count, URLBytes.isHexDigit(bytes[index + 1]), URLBytes.isHexDigit(bytes[index + 2])
                    else { return nil }
                    index += 2
                } else if !URLBytes.isPathByte(byte) {
                    return nil
                }
                index += 1
            }
            var host = String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self)
            if hostHasUppercase { host = host.lowercased() }
            var path = String(decoding: UnsafeBufferPointer(rebasing: bytes[pathStart...]), as: UTF8.self)
            if pathStart == bytes.count || bytes[pathStart] == UInt8(ascii: "?") { path = "/" + path }
            // Written as it is shown (a lower-case host, a path, no default port spelt out), the
            // URL is its own description and holds its authority: no text is put together.
            if !hostHasUppercase, pathStart < bytes.count, bytes[pathStart] == UInt8(ascii: "/"), port != scheme.defaultPort {
                let authority = String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<pathStart]), as: UTF8.self)
                return PlanURL(
                    scheme: scheme, host: host, explicitPort: port, pathAndQuery: path, authority: authority, description: text)
            }
            return PlanURL(scheme: scheme, host: host, explicitPort: port, pathAndQuery: path)
        }
    }
}

/// Byte classes for `PlanURL.parseSimple` (RFC 3986): the encoder's, and the host's own.
private enum URLBytes {
    static func isDigit(_ byte: UInt8) -> Bool { PercentEncoding.isDigit(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool { PercentEncoding.isHexDigit(byte) }

    static func isHostByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// Whether a host holds `xn--` (any case).
    static func containsPunycode(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard host.count >= 4 else { return false }
        for start in 0...(host.count - 4)
        where host[start] | 0x20 == UInt8(ascii: "x") && host[start + 1] | 0x20 == UInt8(ascii: "n")
            && host[start + 2] == UInt8(ascii: "-") && host[start + 3] == UInt8(ascii: "-") {
            return true
        }
        return false
    }

    static func isPathByte(_ byte: UInt8) -> Bool { PercentEncoding.isPathByte(byte) }
}
