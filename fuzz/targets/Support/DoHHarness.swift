// The doh target's checks (through a DNS server's reply reader, which is the doh parser): the same message gives the same result; an answer has addresses of
// the asked family and a TTL within a year; a problem's text is printable ASCII and a garbage
// one quotes the body's length.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RunnerPlan

@testable import RunnerHTTPDNS

enum DoHHarness {
    static let host = "api.example.com"
    static let printResults = ProcessInfo.processInfo.environment["FUZZ_PRINT"] != nil

    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let body = data.map { Data(bytes: $0, count: size) } ?? Data()
        for (type, family) in [(DNSMessage.RecordType.a, IPAddress.Family.v4), (.aaaa, .v6)] {
            let first = parse(body, type)
            if printResults { print(type, first) }
            guard describe(first) == describe(parse(body, type)) else { fail("the same message parsed twice gave two results") }
            switch first {
            case .success(let answer):
                guard !answer.addresses.isEmpty else { fail("an answer without addresses") }
                guard answer.addresses.allSatisfy({ $0.family == family }) else { fail("an address of the other family") }
                if let ttl = answer.ttl, ttl < 0 || ttl > UInt32.max { fail("an answer with ttl \(ttl)") }
            case .failure(let problem):
                guard problem.detail.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 >= 0x80 }) else {
                    fail("a problem text with a control character: \(problem.detail)")
                }
                if problem.kind == .garbage {
                    let suffix = "(\(body.count) byte\(body.count == 1 ? "" : "s"))"
                    guard problem.detail.hasPrefix("not a DNS message"), problem.detail.hasSuffix(suffix) else {
                        fail("a garbage problem that does not name the format and the length: \(problem.detail)")
                    }
                }
            }
        }
        return 0
    }

    /// The message read as a DNS server's reply (`resolver:`), which reads it with the `doh`
    /// format's parser: both transports' code, at once.
    static func parse(_ body: Data, _ type: DNSMessage.RecordType) -> Result<HTTPDNSAnswer, HTTPDNSProblem> {
        let reply = DNSServerQuery.read(body, host: host, family: type == .a ? .v4 : .v6)
        if let rcode = reply.rcode, rcode.isEmpty || !rcode.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            fail("an rcode name that is not printable: \(rcode)")
        }
        switch reply.answer {
        case .success(let answer):
            guard reply.rcode == "NOERROR" else { fail("an answer with rcode \(reply.rcode ?? "none")") }
            guard answer.aliases.count <= DoHAnswerParser.maxAliases else { fail("\(answer.aliases.count) aliases followed") }
            return .success(answer)
        case .failure(.answer(let problem)):
            return .failure(problem)
        case .failure(.exchange(let failure)):
            fail("reading a message gave an exchange failure: \(failure)")
        }
    }

    static func describe(_ result: Result<HTTPDNSAnswer, HTTPDNSProblem>) -> String {
        switch result {
        case .success(let answer): "\(answer.addresses.map(\.text)) \(answer.ttl ?? -1)"
        case .failure(let problem): "\(problem.kind) \(problem.detail)"
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("doh fuzz target: \(message)\n".utf8))
        abort()
    }
}
