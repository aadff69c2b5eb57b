import Foundation

/// Reads the trust keys of a decoded Info.plist, each error located at its key.
struct InfoPlistReader {
    let path: String
    let source: SourceLines
    /// Nil for a binary plist: errors are at line 1, named by their key path.
    let locator: PlistKeyLocator?

    func read(_ top: Any) throws(AppTrustFileError) -> IOSTrustSettings {
        guard let info = top as? [String: Any] else { throw error(at: [], "the top of an Info.plist must be a dictionary") }
        var settings = IOSTrustSettings(
            path: path, allowsArbitraryLoads: false, allowsLocalNetworking: false, exceptionDomains: [], pinnedDomains: [],
            trustKitDomains: nil)
        if let value = info["NSAppTransportSecurity"] {
            try readATS(value, into: &settings)
        }
        if let value = info["TSKConfiguration"] {
            settings.trustKitDomains = try readTrustKit(value)
        }
        return settings
    }

    // MARK: App Transport Security

    private func readATS(_ value: Any, into settings: inout IOSTrustSettings) throws(AppTrustFileError) {
        let atsPath = ["NSAppTransportSecurity"]
        let ats = try dictionary(value, at: atsPath)
        settings.allowsLocalNetworking = try boolean(ats["NSAllowsLocalNetworking"], at: atsPath + ["NSAllowsLocalNetworking"]) ?? false
        // A non-boolean NSAllowsArbitraryLoads counts as unset; any of these three keys, whatever
        // its value, makes iOS ignore it.
        let ignored = ["NSAllowsLocalNetworking", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia"]
            .contains { ats[$0] != nil }
        settings.allowsArbitraryLoads = !ignored && (ats["NSAllowsArbitraryLoads"] as? Bool ?? false)

        if let domainsValue = ats["NSExceptionDomains"] {
            let domainsPath = atsPath + ["NSExceptionDomains"]
            let domains = try dictionary(domainsValue, at: domainsPath)
            for key in orderedKeys(of: domains, at: domainsPath) {
                let entryPath = domainsPath + [key]
                let entry = try dictionary(domains[key] as Any, at: entryPath)
                let tlsPath = entryPath + ["NSExceptionMinimumTLSVersion"]
                var minimumTLS = "1.2"
                if let tlsValue = entry["NSExceptionMinimumTLSVersion"] {
                    guard let text = tlsValue as? String, let version = Self.tlsVersions[text] else {
                        throw error(at: tlsPath, "\(Self.describe(tlsValue)) is not one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3")
                    }
                    minimumTLS = version
                }
                settings.exceptionDomains.append(ATSException(
                    key: HostName.normalized(key),
                    includesSubdomains: try boolean(entry["NSIncludesSubdomains"], at: entryPath + ["NSIncludesSubdomains"]) ?? false,
                    allowsInsecureHTTPLoads: try boolean(
                        entry["NSExceptionAllowsInsecureHTTPLoads"], at: entryPath + ["NSExceptionAllowsInsecureHTTPLoads"]) ?? false,
                    minimumTLSVersion: minimumTLS,
                    requiresForwardSecrecy: try boolean(
                        entry["NSExceptionRequiresForwardSecrecy"], at: entryPath + ["NSExceptionRequiresForwardSecrecy"]) ?? true,
                    line: line(of: entryPath)))
            }
        }

        if let pinnedValue = ats["NSPinnedDomains"] {
            let pinnedPath = atsPath + ["NSPinnedDomains"]
            let pinned = try dictionary(pinnedValue, at: pinnedPath)
            for key in orderedKeys(of: pinned, at: pinnedPath) {
                let entryPath = pinnedPath + [key]
                let entry = try dictionary(pinned[key] as Any, at: entryPath)
                settings.pinnedDomains.append(IOSPinnedDomain(
                    name: HostName.normalized(key),
                    includesSubdomains: try boolean(entry["NSIncludesSubdomains"], at: entryPath + ["NSIncludesSubdomains"]) ?? false,
                    leafPins: try identities(entry["NSPinnedLeafIdentities"], at: entryPath + ["NSPinnedLeafIdentities"]),
                    caPins: try identities(entry["NSPinnedCAIdentities"], at: entryPath + ["NSPinnedCAIdentities"]),
                    line: line(of: entryPath)))
            }
        }
    }

    /// `[{SPKI-SHA256-BASE64: …}]`, each a 32-byte digest.
    private func identities(_ value: Any?, at path: [String]) throws(AppTrustFileError) -> [String] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw error(at: path, "must be an array of {SPKI-SHA256-BASE64: …} dictionaries") }
        var pins: [String] = []
        for (index, item) in list.enumerated() {
            let itemPath = path + [String(index)]
            let identity = try dictionary(item, at: itemPath)
            guard let text = identity["SPKI-SHA256-BASE64"] as? String else {
                throw error(at: itemPath, "an identity needs SPKI-SHA256-BASE64, a string")
            }
            pins.append(try pin(text, at: itemPath + ["SPKI-SHA256-BASE64"]))
        }
        return pins
    }

    /// `TLSv1.0`…`TLSv1.3`, the values ATS accepts, as the policy writes them.
    private static let tlsVersions = ["TLSv1.0": "1.0", "TLSv1.1": "1.1", "TLSv1.2": "1.2", "TLSv1.3": "1.3"]

    // MARK: TrustKit

    /// TrustKit's `TSKConfiguration`: what its initialisation refuses (the app stops) is an error.
    private func readTrustKit(_ value: Any) throws(AppTrustFileError) -> [TrustKitDomain] {
        let configurationPath = ["TSKConfiguration"]
        let configuration = try dictionary(value, at: configurationPath)
        let domainsPath = configurationPath + ["TSKPinnedDomains"]
        guard let domainsValue = configuration["TSKPinnedDomains"] else {
            throw error(at: configurationPath, "TrustKit needs TSKPinnedDomains, a dictionary of at least one domain")
        }
        let domains = try dictionary(domainsValue, at: domainsPath)
        if domains.isEmpty { throw error(at: domainsPath, "TrustKit needs at least one pinned domain") }
        var result: [TrustKitDomain] = []
        for name in orderedKeys(of: domains, at: domainsPath) {
            let entryPath = domainsPath + [name]
            if IPLiteral(name) != nil { throw error(at: entryPath, "TrustKit cannot pin an IP address: \(name) is not a domain") }
            if HostName.normalized(name) == "localhost" { throw error(at: entryPath, "TrustKit cannot pin localhost") }
            if TrustKitPublicSuffixes.contains(name) {
                throw error(at: entryPath, "TrustKit cannot pin \(name): it is a public suffix")
            }
            let entry = try dictionary(domains[name] as Any, at: entryPath)
            let enforce = try boolean(entry["TSKEnforcePinning"], at: entryPath + ["TSKEnforcePinning"]) ?? true
            let hashesPath = entryPath + ["TSKPublicKeyHashes"]
            guard let hashes = entry["TSKPublicKeyHashes"] as? [Any] else {
                throw error(
                    at: entry["TSKPublicKeyHashes"] == nil ? entryPath : hashesPath,
                    "TSKPublicKeyHashes must be an array of base64 SHA-256 SPKI hashes")
            }
            var pins: [String] = []
            for (index, hash) in hashes.enumerated() {
                let hashPath = hashesPath + [String(index)]
                guard let text = hash as? String else { throw error(at: hashPath, "a public key hash must be a string") }
                pins.append(try pin(text, at: hashPath))
            }
            let distinct = Set(pins).count
            let needed = enforce ? 2 : 1
            if distinct < needed {
                let why = enforce ? " when TSKEnforcePinning is YES (a backup pin)" : ""
                throw error(at: hashesPath, "TrustKit needs at least \(needed) distinct pin\(needed == 1 ? "" : "s")\(why), found \(distinct)")
            }
            let day = (entry["TSKExpirationDate"] as? String).flatMap(CalendarDay.init)
            result.append(TrustKitDomain(
                name: name, pins: pins, enforcePinning: enforce,
                includeSubdomains: try boolean(entry["TSKIncludeSubdomains"], at: entryPath + ["TSKIncludeSubdomains"]) ?? false,
                expiration: day?.text, expiresAt: day?.midnightUTC, line: line(of: entryPath)))
        }
        return result
    }

    // MARK: Values

    private func pin(_ text: String, at path: [String]) throws(AppTrustFileError) -> String {
        switch PinValue.check(text, length: 32) {
        case .success(let pin):
            return pin
        case .failure(.notBase64):
            throw error(at: path, "\"\(text)\" is not base64")
        case .failure(.wrongLength(let length)):
            throw error(at: path, "\"\(text)\" decodes to \(length) bytes, a SHA-256 digest is 32")
        }
    }

    private func dictionary(_ value: Any, at path: [String]) throws(AppTrustFileError) -> [String: Any] {
        guard let dictionary = value as? [String: Any] else { throw error(at: path, "must be a dictionary, found \(Self.describe(value))") }
        return dictionary
    }

    /// A boolean key: nil when absent, an error when it holds something else.
    private func boolean(_ value: Any?, at path: [String]) throws(AppTrustFileError) -> Bool? {
        guard let value else { return nil }
        guard let flag = value as? Bool else {
            throw error(at: path, "must be a boolean (<true/> or <false/>), found \(Self.describe(value))")
        }
        return flag
    }

    /// A value as an error quotes it: a string in quotes, else its plist type.
    private static func describe(_ value: Any) -> String {
        switch value {
        case let text as String: return "\"\(text)\""
        case is Bool: return "a boolean"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        case is Data: return "data"
        case is Date: return "a date"
        case is Int, is Double, is NSNumber: return "a number"
        default: return "a \(type(of: value))"
        }
    }

    /// A dictionary's keys in file order (an error is the first the file holds), by name in a binary plist.
    private func orderedKeys(of dictionary: [String: Any], at path: [String]) -> [String] {
        dictionary.keys.sorted { first, second in
            let firstLine = locator?.location(of: path + [first])?.line ?? 0
            let secondLine = locator?.location(of: path + [second])?.line ?? 0
            return firstLine != secondLine ? firstLine < secondLine : first < second
        }
    }

    private func line(of path: [String]) -> Int { locator?.location(of: path)?.line ?? 1 }

    private func error(at path: [String], _ message: String) -> AppTrustFileError {
        let location = locator?.location(of: path)
        let line = location?.line ?? 1
        let keyPath = path.isEmpty ? "" : path.joined(separator: ".") + ": "
        return AppTrustFileError(
            path: self.path, line: line, column: location?.column ?? 1, message: keyPath + message,
            sourceLine: location == nil ? nil : source.line(line))
    }
}
