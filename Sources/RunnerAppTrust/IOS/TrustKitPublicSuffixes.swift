/// The public suffixes TrustKit refuses to pin, as a small built-in list of common ones (not
/// the whole Public Suffix List TrustKit ships): a domain outside it is taken as pinnable.
enum TrustKitPublicSuffixes {
    static let common: Set<String> = [
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "io", "co", "app", "dev", "cloud", "xyz", "me", "tv",
        "eu", "us", "uk", "de", "fr", "jp", "ru", "br", "au", "in", "cn", "hk", "tw", "kr", "sg",
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "co.uk", "org.uk", "ac.uk", "gov.uk", "co.jp", "ne.jp", "or.jp",
        "com.au", "net.au", "org.au", "com.br", "co.in", "com.hk", "com.tw", "co.kr", "com.sg",
    ]

    static func contains(_ domain: String) -> Bool { common.contains(HostName.normalized(domain)) }
}
