import Foundation

/// Walks a Network Security Config's elements in document order with AOSP `XmlConfigSource`'s
/// rules, stopping at the first one the platform refuses.
struct NSCReader {
    /// Which element a config's children are read in (the platform's CONFIG_BASE/DOMAIN/DEBUG).
    enum ConfigKind: String {
        case base = "base-config"
        case domain = "domain-config"
        case debug = "debug-overrides"
    }

    let path: String
    let source: SourceLines
    let debuggable: Bool
    let rawDirectory: String?
    /// Every domain read so far and its line: a name may appear once in the whole file.
    private var seenDomains: [String: Int] = [:]
    private var domainConfigs: [AndroidDomainConfig] = []

    init(path: String, source: SourceLines, debuggable: Bool, rawDirectory: String?) {
        self.path = path
        self.source = source
        self.debuggable = debuggable
        self.rawDirectory = rawDirectory
    }

    mutating func read(_ root: XMLNode) throws(AppTrustFileError) -> AndroidNetworkSecurityConfig {
        guard root.name == "network-security-config" else {
            throw error(at: root, "unexpected start tag: found \(root.name), expected network-security-config")
        }
        var baseConfig: AndroidDomainConfig?
        var seenDebugOverrides = false
        var debugAnchors: [AndroidTrustAnchor]?
        for child in root.children {
            switch child.name {
            case "base-config":
                if baseConfig != nil { throw error(at: child, "only one base-config allowed") }
                baseConfig = try readConfig(child, kind: .base, parentIndex: nil)
            case "domain-config":
                _ = try readConfig(child, kind: .domain, parentIndex: nil)
            case "debug-overrides":
                if seenDebugOverrides { throw error(at: child, "only one debug-overrides allowed") }
                seenDebugOverrides = true
                // A release build skips the element unread: its errors do not stop the app.
                if debuggable {
                    debugAnchors = try readConfig(child, kind: .debug, parentIndex: nil).trustAnchors ?? []
                }
            default:
                continue  // unknown elements are skipped
            }
        }
        return AndroidNetworkSecurityConfig(path: path, baseConfig: baseConfig, domainConfigs: domainConfigs, debugAnchors: debugAnchors)
    }

    /// Reads one config; a domain-config is added to `domainConfigs` before its nested ones.
    private mutating func readConfig(_ node: XMLNode, kind: ConfigKind, parentIndex: Int?) throws(AppTrustFileError) -> AndroidDomainConfig {
        var config = AndroidDomainConfig(
            domains: [], cleartextTrafficPermitted: node.attributes["cleartextTrafficPermitted"].flatMap(Self.boolean),
            trustAnchors: nil, pinSet: nil, parentIndex: parentIndex, line: node.line)
        var index: Int?
        if kind == .domain {
            index = domainConfigs.count
            domainConfigs.append(config)
        }
        var seenPinSet = false
        for child in node.children {
            switch child.name {
            case "domain":
                guard kind == .domain else { throw error(at: child, "domain element not allowed in \(kind.rawValue)") }
                config.domains.append(try readDomain(child))
            case "trust-anchors":
                if config.trustAnchors != nil { throw error(at: child, "multiple trust-anchors elements not allowed") }
                config.trustAnchors = try readTrustAnchors(child, overridePinsByDefault: kind == .debug)
            case "pin-set":
                guard kind == .domain else { throw error(at: child, "pin-set element not allowed in \(kind.rawValue)") }
                if seenPinSet { throw error(at: child, "multiple pin-set elements not allowed") }
                seenPinSet = true
                config.pinSet = try readPinSet(child)
            case "domain-config":
                guard kind == .domain, let index else { throw error(at: child, "nested domain-config not allowed in \(kind.rawValue)") }
                // Inheritance is resolved when a host is asked for: the parent's index is enough here.
                _ = try readConfig(child, kind: .domain, parentIndex: index)
            default:
                continue
            }
        }
        if kind == .domain, config.domains.isEmpty { throw error(at: node, "no domain elements in domain-config") }
        if let index { domainConfigs[index] = config }
        return config
    }

    private mutating func readDomain(_ node: XMLNode) throws(AppTrustFileError) -> AndroidDomain {
        if !node.children.isEmpty { throw error(at: node, "domain contains additional elements") }
        let name = HostName.lowercased(node.text.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.isEmpty { throw error(at: node, "domain name missing") }
        if let firstLine = seenDomains[name] {
            throw error(at: node, "duplicate domain name \(name) (first at line \(firstLine))")
        }
        seenDomains[name] = node.line
        return AndroidDomain(name: name, includeSubdomains: node.attributes["includeSubdomains"].flatMap(Self.boolean) ?? false)
    }

    private func readTrustAnchors(_ node: XMLNode, overridePinsByDefault: Bool) throws(AppTrustFileError) -> [AndroidTrustAnchor] {
        var anchors: [AndroidTrustAnchor] = []
        for child in node.children where child.name == "certificates" {
            guard let src = child.attributes["src"] else { throw error(at: child, "certificates element missing src attribute") }
            let overridePins = child.attributes["overridePins"].flatMap(Self.boolean) ?? overridePinsByDefault
            switch src {
            case "system", "user":
                anchors.append(AndroidTrustAnchor(source: src, overridePins: overridePins))
            default:
                guard src.hasPrefix("@raw/"), Self.isResourceName(src.dropFirst(5)) else {
                    throw error(at: child, "unknown certificates src \"\(src)\": should be one of system|user|@raw/NAME")
                }
                try checkRawFile(String(src.dropFirst(5)), at: child)
                anchors.append(AndroidTrustAnchor(source: src, overridePins: overridePins))
            }
        }
        return anchors
    }

    /// A raw resource `NAME` is a file `NAME` or `NAME.EXT` in the raw folder (aapt drops the extension).
    private func checkRawFile(_ name: String, at node: XMLNode) throws(AppTrustFileError) {
        guard let rawDirectory else { return }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: rawDirectory)) ?? []
        let found = files.contains { file in
            file == name || (file.hasPrefix(name + ".") && !file.dropFirst(name.count + 1).contains("."))
        }
        if !found { throw error(at: node, "@raw/\(name) is missing: no file \(name) or \(name).* in \(rawDirectory)") }
    }

    private func readPinSet(_ node: XMLNode) throws(AppTrustFileError) -> AndroidPinSet {
        var expiration: CalendarDay?
        if let text = node.attributes["expiration"] {
            guard let day = CalendarDay(text) else {
                throw error(at: node, "invalid expiration date \"\(text)\": expected yyyy-MM-dd")
            }
            expiration = day
        }
        var pins: [String] = []
        for child in node.children where child.name == "pin" {
            let digest = child.attributes["digest"] ?? ""
            guard digest == "SHA-256" else { throw error(at: child, "unsupported pin digest algorithm: \"\(digest)\" (only SHA-256)") }
            if !child.children.isEmpty { throw error(at: child, "pin contains additional elements") }
            let text = child.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { throw error(at: child, "missing pin digest") }
            switch PinValue.check(text, length: 32) {
            case .success(let pin):
                pins.append(pin)
            case .failure(.notBase64):
                throw error(at: child, "invalid pin digest \"\(text)\": not base64")
            case .failure(.wrongLength(let length)):
                throw error(at: child, "digest length \(length) does not match expected length for SHA-256 of 32")
            }
        }
        return AndroidPinSet(pins: pins, expiration: expiration?.text, expiresAt: expiration?.midnightUTC)
    }

    /// An Android resource name: letters, digits, `_` and `.`, not empty.
    private static func isResourceName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// A boolean attribute as Android's `getAttributeBooleanValue` reads it: `true`/`false`;
    /// anything else leaves the value unset.
    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    private func error(at node: XMLNode, _ message: String) -> AppTrustFileError {
        AppTrustFileError(path: path, line: node.line, column: node.column, message: message, sourceLine: source.line(node.line))
    }
}
