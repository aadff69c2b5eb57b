import Foundation
import RunnerVocabulary

/// Where a request goes, as the cookie jar sees it: always the plan's original host, never the IP
/// the transfer is really sent to (so cookies survive IP direct connect under every strategy).
struct CookieURL: Sendable, Equatable {
    /// Whether the scheme is https (Secure cookies are sent only then).
    var secure: Bool
    /// The original host: lower-case, IPv6 literals without brackets.
    var host: String
    /// The path without query, starting with "/".
    var path: String
}

/// A cookie held by a `CookieJar` (RFC 6265 §5.3's storage model, minus the fields we do not use).
struct StoredCookie: Sendable, Equatable {
    var name: String
    var value: String
    /// The request host (host-only) or the Domain attribute, lower-case, without a leading dot.
    var domain: String
    /// True when the cookie goes only to `domain` itself, false when it goes to its subdomains too.
    var hostOnly: Bool
    var path: String
    var secure: Bool
    /// Kept for evidence; irrelevant to a client that only speaks HTTP.
    var httpOnly: Bool
    /// When the cookie expires; nil for a session cookie (it lives as long as the jar).
    var expires: Date?
    /// When the first cookie with this (name, domain, path) was stored; replacing keeps it.
    var creation: Date
}

/// One scenario run's cookies, keyed by original host name (RFC 6265 §5.2–5.4).
///
/// There is no public-suffix list: instead, a `Domain` without an inner dot ("com", "localhost") is
/// accepted only when it equals the request host, and then as a host-only cookie, which is what
/// RFC 6265 §5.3 step 5 does for public suffixes. Multi-label suffixes such as "co.uk" are accepted.
/// A Secure cookie received over http is stored (RFC 6265; RFC 6265bis would drop it), and sent
/// only over https.
struct CookieJar: Sendable, Equatable {
    /// Held cookies in creation order; a replaced cookie keeps its slot, as it keeps its creation time.
    private var held: [StoredCookie] = []

    /// An empty jar.
    init() {}

    /// Every cookie currently held (for evidence), in the order they were first set.
    var cookies: [StoredCookie] { held }

    /// Stores the cookies of every `Set-Cookie` header a response to `requestURL` carried.
    ///
    /// Malformed headers and cookies whose Domain does not cover the request host are ignored; a
    /// cookie with the (name, domain, path) of a held one replaces it; an expired one deletes it.
    mutating func store(setCookieHeaders: [String], requestURL: CookieURL, now: Date) {
        let host = requestURL.host.lowercased()
        for header in setCookieHeaders {
            guard let parsed = SetCookie(parsing: header),
                let cookie = Self.cookie(from: parsed, host: host, requestPath: requestURL.path, now: now)
            else { continue }
            insert(cookie, now: now)
        }
        // RFC 6265 §5.3: expired cookies are evicted, so the evidence never lists them.
        held.removeAll { Self.isExpired($0, now: now) }
    }

    /// The `Cookie:` header value for a request to `url`, or nil when no cookie applies.
    ///
    /// Cookies are listed longer path first, then earlier creation first (RFC 6265 §5.4).
    func cookieHeader(for url: CookieURL, now: Date) -> String? {
        let host = url.host.lowercased()
        func applies(_ cookie: StoredCookie) -> Bool {
            let domainMatches =
                cookie.hostOnly
                ? host == cookie.domain : CookieMatching.domainMatches(host: host, domain: cookie.domain)
            return domainMatches
                && CookieMatching.pathMatches(requestPath: url.path, cookiePath: cookie.path)
                && (!cookie.secure || url.secure)
                && !Self.isExpired(cookie, now: now)
        }
        guard let first = held.firstIndex(where: applies) else { return nil }
        let others = held.indices[(first + 1)...].filter { applies(held[$0]) }
        // One cookie (a session's, the usual case): nothing to order, no list made.
        guard !others.isEmpty else { return String(concatenating: held[first].name, "=", held[first].value) }
        // The slot breaks ties between cookies created at the same instant: the order they were set in.
        let ordered = ([first] + others).sorted { lhs, rhs in
            let (lhsCookie, rhsCookie) = (held[lhs], held[rhs])
            let (lhsPath, rhsPath) = (lhsCookie.path.utf8.count, rhsCookie.path.utf8.count)
            if lhsPath != rhsPath { return lhsPath > rhsPath }
            if lhsCookie.creation != rhsCookie.creation { return lhsCookie.creation < rhsCookie.creation }
            return lhs < rhs
        }
        return ordered.map { String(concatenating: held[$0].name, "=", held[$0].value) }.joined(separator: "; ")
    }

    // MARK: - Storage model (RFC 6265 §5.3)

    /// The cookie to store for `parsed`, or nil when it must be ignored because of its Domain.
    private static func cookie(from parsed: SetCookie, host: String, requestPath: String, now: Date) -> StoredCookie? {
        var domain = parsed.domain ?? ""
        if !domain.isEmpty {
            if CookieMatching.isIPLiteral(host) {
                // An IP host gets host-only cookies only: a Domain naming anything else is refused.
                guard domain == host else { return nil }
                domain = ""
            } else if !domain.utf8.contains(UInt8(ascii: ".")) {
                // Our stand-in for the public-suffix check: a TLD-like Domain only for that very host.
                guard domain == host else { return nil }
                domain = ""
            } else if !CookieMatching.domainMatches(host: host, domain: domain) {
                return nil
            }
        }

        let expires: Date?
        if let maxAge = parsed.maxAge {
            // Max-Age wins over Expires, wherever each appears; zero or less means "delete now".
            expires = maxAge <= 0 ? .distantPast : min(now.addingTimeInterval(TimeInterval(maxAge)), .distantFuture)
        } else {
            expires = parsed.expires
        }

        return StoredCookie(
            name: parsed.name, value: parsed.value,
            domain: domain.isEmpty ? host : domain, hostOnly: domain.isEmpty,
            path: parsed.path ?? CookieMatching.defaultPath(of: requestPath),
            secure: parsed.secure, httpOnly: parsed.httpOnly,
            expires: expires, creation: now)
    }

    /// Replaces the held cookie with the same (name, domain, path), keeping its creation time, or appends.
    private mutating func insert(_ cookie: StoredCookie, now: Date) {
        // Bytes, not Characters: two names that merely look alike are two cookies.
        let index = held.firstIndex {
            $0.name.utf8.elementsEqual(cookie.name.utf8) && $0.domain == cookie.domain
                && $0.path.utf8.elementsEqual(cookie.path.utf8)
        }
        if Self.isExpired(cookie, now: now) {
            // An already-expired cookie is how servers delete one: drop the old, store nothing.
            if let index { held.remove(at: index) }
            return
        }
        guard let index else {
            held.append(cookie)
            return
        }
        var replacement = cookie
        replacement.creation = held[index].creation
        held[index] = replacement
    }

    private static func isExpired(_ cookie: StoredCookie, now: Date) -> Bool {
        guard let expires = cookie.expires else { return false }
        return expires <= now
    }
}
