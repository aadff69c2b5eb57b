/// The keys each section of a plan accepts (plan-format.md).
enum Keys {
    static let topLevel = KeySet(["version", "name", "defaults", "vars", "domains", "scenarios"])
    static let settings = [
        "timeout", "connect_timeout", "http", "follow_redirects", "max_redirects", "ca", "insecure",
        "max_body", "retries", "strategy", "ips", "ip_version", "domains", "headers",
    ]
    static let defaults = KeySet(settings)
    static let scenario = KeySet(["name", "tags", "request", "expect"] + settings)
    static let request = KeySet(["method", "url", "headers", "body", "body_base64", "body_file", "insecure"])
    static let bodyKinds = ["body", "body_base64", "body_file"]
    static let expect = KeySet(["status", "headers", "body", "certificate", "time", "http_version", "redirects", "final_url"])
    static let headerMatcher = KeySet(["equals", "contains", "matches", "absent"])
    static let valueMatcher = KeySet(["equals", "contains", "matches"])
    static let bodyMatcher = KeySet(["equals", "contains", "matches", "sha256", "json"])
    static let certificate = KeySet(["min_days_left", "issuer", "subject"])
    static let time = KeySet(["total", "connect", "tls", "first_byte"])
    static let domainMap = KeySet(["static", "httpdns"])
    static let httpdns = KeySet(["format", "url", "timeout", "fallback"])
}
