// Shared by the three HTTPDNS targets: one body, parsed the way `HTTPDNSLookup` parses it.
//
// Besides crashes, hangs and leaks, a finding is a result that breaks what the parsers
// promise (the same properties `HTTPDNSRandomBodyTests` checks, here on libFuzzer's inputs):
// the same body gives the same result; an answer has addresses and a TTL within a year; a
// problem's text is printable ASCII, and a garbage one names the format and quotes the
// body's length; a failed HTTP status is always the service's error.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RunnerPlan

@testable import RunnerHTTPDNS

enum HTTPDNSHarness {
    /// A body read by `format` as `HTTPDNSLookup` reads it, to a query that asks no family.
    static func parse(_ format: HTTPDNSSpec.Format, host: String, status: Int, body: Data) -> Result<HTTPDNSAnswer, HTTPDNSProblem> {
        do throws(HTTPDNSProblem) {
            let query = HTTPDNSQuery(url: "http://httpdns.example/q")
            return .success(try format.wire.answer(to: query, host: host, reply: HTTPDNSReply(status: status, body: body)))
        } catch {
            return .failure(error)
        }
    }

    static let host = "api.example.com"
    /// `FUZZ_PRINT=1 .build-fuzz/bin/TARGET FILE` shows what a parse gave, for triage.
    static let printResults = ProcessInfo.processInfo.environment["FUZZ_PRINT"] != nil

    static func run(_ format: HTTPDNSSpec.Format, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let body = data.map { Data(bytes: $0, count: size) } ?? Data()
        let result = parse(format, host: host, status: 200, body: body)
        if printResults { print(HTTPDNSOutcome(result)) }
        guard HTTPDNSOutcome(result) == HTTPDNSOutcome(parse(format, host: host, status: 200, body: body)) else {
            fail("the same body parsed twice gave two results: \(HTTPDNSOutcome(result))")
        }
        switch result {
        case .success(let answer):
            guard !answer.addresses.isEmpty else { fail("an answer without addresses") }
            if let ttl = answer.ttl, !HTTPDNSFields.isPlausibleTTL(ttl) { fail("an answer with ttl \(ttl)") }
            _ = answer.addresses.map(\.text).joined(separator: ", ") + (answer.clientIP ?? "")
        case .failure(let problem):
            check(problem, body: body)
            if problem.kind == .garbage {
                let prefix = "not \(formatName(format))"
                let suffix = "(\(body.count) byte\(body.count == 1 ? "" : "s"))"
                guard problem.description.hasPrefix(prefix), problem.description.hasSuffix(suffix) else {
                    fail("garbage that does not say '\(prefix)…\(suffix)': \(problem)")
                }
            }
        }
        // Whatever the body, a failed status is the service's error (Alibaba reads its code first).
        for status in [403, 502] {
            let failed = parse(format, host: host, status: status, body: body)
            guard case .failure(let problem) = failed, problem.kind == .serviceError else {
                fail("HTTP \(status) gave \(HTTPDNSOutcome(failed))")
            }
            check(problem, body: body)
        }
        return 0
    }

    static func formatName(_ format: HTTPDNSSpec.Format) -> String {
        switch format {
        case .dnspod: DNSPodAnswerParser.formatName
        case .alibaba: AlibabaAnswerParser.formatName
        case .alibabaV2: AlibabaV2AnswerParser.formatName
        case .dohJSON: DoHJSONAnswerParser.formatName
        case .json: JSONFormat.formatName
        case .doh: DoHAnswerParser.formatName
        }
    }

    /// A problem's text goes to consoles and XML as is: never empty, printable ASCII (and `…`).
    static func check(_ problem: HTTPDNSProblem, body: Data) {
        let text = problem.description
        guard !text.isEmpty else { fail("a problem without text") }
        for scalar in text.unicodeScalars where !(0x20...0x7E).contains(scalar.value) && scalar != "…" {
            fail("a problem text with U+\(String(scalar.value, radix: 16, uppercase: true)): \(text.debugDescription)")
        }
    }

    /// A broken property: say which, then abort so libFuzzer keeps the input.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("HTTPDNS fuzz target: \(message)\n".utf8))
        abort()
    }
}

/// Results in comparable terms (`IPAddress` values by their text).
enum HTTPDNSOutcome: Equatable, CustomStringConvertible {
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
