import Foundation
@testable import RunnerPlan
import Testing

@Suite("Plan URLs")
struct PlanURLTests {
    private static let schemes = ["http://", "https://", "HTTPS://", "ftp://", "https:/", "https:"]
    private static let hosts = [
        "api.example.com", "API.Example.COM", "203.0.113.10", "999.1.1.1", "[::1]", "[2001:db8::1]", "a..b", "-a",
        ".", "a_b", "xn--bcher-kva.example", "a.XN--bcher-kva.example", "", "ex ample.com", "例え.jp", "user@host", "u:p@host", "localhost",
    ]
    private static let ports = ["", ":", ":0", ":1", ":080", ":8443", ":65535", ":65536", ":99999", ":123456", ":a"]
    private static let paths = [
        "", "/", "/items/1", "//x", "/a b", "/%20", "/%2", "/%zz", "/é", "/a;b=c,d", "/~user/", "/a:b@c", "#frag",
        "/x#f", "/[x]", "/a|b", "/a\"b", "/{x}", "/a\\b", "/'!$&()*+",
    ]
    private static let queries = ["", "?", "?q=1", "?a=b&c=d", "?x?y", "?a b", "?%2F", "?a/b", "?a#b", "?[", "?é", "?a%"]

    @Test("the hand parser agrees with URLComponents wherever it answers")
    func handParserAgrees() {
        var answered = 0
        var disagreements: [String] = []
        for scheme in Self.schemes {
            for host in Self.hosts {
                for port in Self.ports {
                    for path in Self.paths {
                        for query in Self.queries {
                            let text = scheme + host + port + path + query
                            guard let simple = PlanURL.parseSimple(text) else { continue }
                            answered += 1
                            if simple != PlanURL.parseWithComponents(text) { disagreements.append(text) }
                        }
                    }
                }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(5))")
        #expect(answered > 1000)
    }

    @Test("the usual URLs take the fast path", arguments: [
        "https://api.example.com/items/1?q=1", "http://203.0.113.10:8080/", "https://api.example.com",
        "https://Example.COM/a/b;c?x=%2F&y=z",
    ])
    func usualURLs(text: String) {
        #expect(PlanURL.parseSimple(text) != nil)
        #expect(PlanURL.parse(text) == PlanURL.parseWithComponents(text))
    }
}
