import PlanFixtures
import Foundation
import RunnerPlan
import Testing

@testable import RunnerHTTPDNS

/// One reply read by `format` as `HTTPDNSLookup` reads it, to a query that asks no family.
func parseReply(
    _ format: HTTPDNSSpec.Format, host: String, status: Int, body: Data
) -> Result<HTTPDNSAnswer, HTTPDNSProblem> {
    do throws(HTTPDNSProblem) {
        let query = HTTPDNSQuery(url: "http://httpdns.example/q")
        return .success(try format.wire.answer(to: query, host: host, reply: HTTPDNSReply(status: status, body: body)))
    } catch {
        return .failure(error)
    }
}

/// What one parse must come to, in comparable terms (address texts rather than `IPAddress` values).
enum HTTPDNSOutcome: Equatable, Sendable, CustomStringConvertible {
    case answer([String], ttl: Int?, clientIP: String?)
    case problem(HTTPDNSProblem.Kind, String)

    init(_ result: Result<HTTPDNSAnswer, HTTPDNSProblem>) {
        switch result {
        case .success(let answer): self = .answer(answer.addresses.map(\.text), ttl: answer.ttl, clientIP: answer.clientIP)
        case .failure(let problem): self = .problem(problem.kind, problem.description)
        }
    }

    var description: String {
        switch self {
        case .answer(let addresses, let ttl, let clientIP):
            "answer \(addresses) ttl \(ttl.map(String.init) ?? "-") client \(clientIP ?? "-")"
        case .problem(let kind, let detail): "\(kind): \(detail)"
        }
    }
}

/// One recorded body and what the parser must make of it.
struct HTTPDNSCase: Sendable, CustomTestStringConvertible {
    var name: String
    var host: String
    var status: Int
    var body: Data
    var expected: HTTPDNSOutcome
    /// The HTTP `Age` header, for formats whose TTL it shortens (doh).
    var age: Int? = nil

    init(_ name: String, host: String = "api.example.com", status: Int = 200, _ body: String, _ expected: HTTPDNSOutcome) {
        self.init(name, host: host, status: status, bytes: Data(body.utf8), expected)
    }

    init(_ name: String, host: String = "api.example.com", status: Int = 200, bytes: Data, _ expected: HTTPDNSOutcome) {
        self.name = name
        self.host = host
        self.status = status
        self.body = bytes
        self.expected = expected
    }

    var testDescription: String { name }

    func run(_ format: HTTPDNSSpec.Format) -> HTTPDNSOutcome {
        HTTPDNSOutcome(parseReply(format, host: host, status: status, body: body))
    }
}

/// Shorthands for the tables.
extension HTTPDNSOutcome {
    static func ok(_ addresses: [String], ttl: Int? = nil, client: String? = nil) -> HTTPDNSOutcome {
        .answer(addresses, ttl: ttl, clientIP: client)
    }

    static func noAnswer(_ detail: String) -> HTTPDNSOutcome { .problem(.noAnswer, detail) }
    static func noSuchName(_ detail: String) -> HTTPDNSOutcome { .problem(.noSuchName, detail) }
    static func garbage(_ detail: String) -> HTTPDNSOutcome { .problem(.garbage, detail) }
    static func serviceError(_ detail: String) -> HTTPDNSOutcome { .problem(.serviceError, detail) }
}

/// A gateway error page, longer than the quote: 812 bytes like the ones proxies send.
let httpdnsHTMLPage: String = {
    let head = "<html><body>Bad gateway: the upstream HTTPDNS server did not answer in time.</body></html>"
    return head + String(repeating: "\n<!-- padding -->", count: (812 - head.utf8.count) / 17)
        + String(repeating: " ", count: (812 - head.utf8.count) % 17)
}()
