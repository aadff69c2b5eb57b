/// The matching rules of RFC 6265 §5.1.3–5.1.4, on lower-cased host names and raw paths.
enum CookieMatching {
    /// §5.1.3: `host` equals `domain`, or ends with "." + `domain` and is a host name (not an IP).
    static func domainMatches(host: String, domain: String) -> Bool {
        if host.utf8.elementsEqual(domain.utf8) { return true }
        guard !isIPLiteral(host), !domain.isEmpty, host.utf8.reversed().starts(with: domain.utf8.reversed())
        else { return false }
        let beforeSuffix = host.utf8.dropLast(domain.utf8.count)
        return beforeSuffix.last == UInt8(ascii: ".")
    }

    /// §5.1.4: the paths are equal, or `cookiePath` is a prefix of `requestPath` that ends at a "/"
    /// (so "/a" matches "/a/b" but not "/ab"). Case-sensitive, byte by byte.
    static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
        // Bytes, not Characters: String comparison would fold canonically equivalent paths together.
        if requestPath.utf8.elementsEqual(cookiePath.utf8) { return true }
        guard requestPath.utf8.starts(with: cookiePath.utf8) else { return false }
        if cookiePath.utf8.last == UInt8(ascii: "/") { return true }
        let rest = requestPath.utf8.dropFirst(cookiePath.utf8.count)
        return rest.first == UInt8(ascii: "/")
    }

    /// §5.1.4's default-path: the request path up to, not including, its last "/"; "/" when that is empty.
    static func defaultPath(of requestPath: String) -> String {
        // The contract passes a path without query; cut one anyway, it must not leak into a cookie path.
        let path = requestPath.prefix { $0 != "?" && $0 != "#" }
        guard path.hasPrefix("/"), let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex
        else { return "/" }
        return String(path[..<lastSlash])
    }

    /// Whether `host` is an IP literal: IPv6 (has a ":") or IPv4 (its last label is a number, the
    /// WHATWG URL rule, which also covers shortened forms such as "127.1").
    static func isIPLiteral(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        let lastLabel = host.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        return !lastLabel.isEmpty && lastLabel.allSatisfy(\.isASCIIDigit)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
