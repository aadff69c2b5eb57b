import Foundation
import RunnerPlan
import RunnerResults
import RunnerHTTPDNS
import RunnerTransport
import RunnerVocabulary

/// One host asked of one HTTPDNS service: its queries (two for doh-json under `ip_version:
/// any`) as transfers on the engine, their answers parsed strictly and merged.
struct HTTPDNSLookup {
    var mapName: String
    var service: HTTPDNSSpec
    var host: String
    var ipVersion: IPVersionPreference
    var caFile: String?

    /// Answers of HTTPDNS bodies are small; anything past this is not an answer anyway.
    private static let bodyLimit = 64 * 1024

    func run(on engine: TransferEngine, completion: @escaping (Result<Resolution, TransferError>) -> Void) {
        let urls = HTTPDNSWire.queryURLs(
            template: service.urlTemplate, host: host, format: service.format, ipVersion: ipVersion)
        var answers: [(url: String, result: Result<HTTPDNSAnswer, TransferError>)?] = Array(repeating: nil, count: urls.count)
        var remaining = urls.count
        let settle = { (index: Int, url: String, result: Result<HTTPDNSAnswer, TransferError>) in
            answers[index] = (url, result)
            remaining -= 1
            if remaining == 0 { completion(merge(answers.compactMap { $0 })) }
        }
        for (index, url) in urls.enumerated() {
            let sent: String
            do throws(HTTPDNSAuthProblem) {
                sent = try service.auth?.authorizedURL(url, now: Date()) ?? url
            } catch {
                settle(index, url, .failure(TransferError(kind: .resolve, message: "\(label) at \(url): \(error)")))
                continue
            }
            // The signed or encrypted URL is sent and never shown: texts name `url`, as the plan wrote it.
            let spec = TransferSpec(
                url: sent, tls: TransferSpec.TLSSettings(caFile: caFile), httpVersion: .http1_1,
                timeout: service.timeout, connectTimeout: service.timeout,
                poolKey: PoolKey(["httpdns", mapName, caFile ?? "system"]), bodyCaptureLimit: Self.bodyLimit)
            engine.submit(spec) { outcome in settle(index, url, answer(of: outcome, url: url)) }
        }
    }

    /// `HTTPDNS map 'ali' (alibaba, alibaba-sign)`: the format, and the auth scheme when there is one.
    private var label: String {
        let scheme = service.auth.map { ", \($0.scheme.rawValue)" } ?? ""
        return "HTTPDNS map '\(mapName)' (\(service.format.rawValue)\(scheme))"
    }

    private func answer(of outcome: TransferOutcome, url: String) -> Result<HTTPDNSAnswer, TransferError> {
        switch outcome.result {
        case .failure(let failure):
            let what = failure.kind == .timeout ? "no answer within \(service.timeout.planNotation)" : failure.message
            return .failure(TransferError(kind: .resolve, message: "\(label) at \(url): \(what)"))
        case .success(let response):
            var body = response.body
            if let auth = service.auth, (200..<300).contains(response.status) {
                do throws(HTTPDNSAuthProblem) {
                    body = try auth.decryptAnswer(body: body)
                } catch {
                    return .failure(TransferError(
                        kind: .resolve, message: "\(label) at \(url) answered HTTP \(response.status): \(error)"))
                }
            }
            switch HTTPDNSWire.parse(format: service.format, host: host, status: response.status, body: body) {
            case .success(let answer):
                return .success(answer)
            case .failure(let problem) where problem.kind == .serviceError:
                // The service's own error text already names its HTTP status.
                return .failure(TransferError(kind: .resolve, message: "\(label) at \(url) answered \(problem)"))
            case .failure(let problem):
                return .failure(TransferError(
                    kind: .resolve, message: "\(label) at \(url) answered HTTP \(response.status): \(problem)"))
            }
        }
    }

    /// One query's failure fails the lookup unless another query answered (an A query that
    /// answers while its AAAA twin has none is a good answer).
    private func merge(_ answers: [(url: String, result: Result<HTTPDNSAnswer, TransferError>)]) -> Result<Resolution, TransferError> {
        var addresses: [IPAddress] = []
        var ttl: Int?
        var firstError: TransferError?
        for (_, result) in answers {
            switch result {
            case .success(let answer):
                addresses += answer.addresses.filter { !addresses.contains($0) }
                if let answerTTL = answer.ttl { ttl = min(ttl ?? answerTTL, answerTTL) }
            case .failure(let error):
                firstError = firstError ?? error
            }
        }
        guard !addresses.isEmpty else {
            return .failure(firstError ?? TransferError(kind: .resolve, message: "\(label) has no address for '\(host)'"))
        }
        var source = "\(label) via \(answers.map(\.url).joined(separator: " + "))"
        if let ttl { source += ", ttl \(ttl)s" }
        return .success(Resolution(addresses: addresses, source: source, lookupTime: 0, ttl: ttl))
    }
}
