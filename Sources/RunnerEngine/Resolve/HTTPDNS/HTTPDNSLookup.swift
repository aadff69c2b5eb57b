import Foundation
import RunnerPlan
import RunnerResults
import RunnerHTTPDNS
import RunnerTransport
import RunnerVocabulary

/// One host asked of one HTTPDNS service: the queries its format builds (two when a format
/// asks one family per query under `ip_version: any`), signed or encrypted by its `auth`, sent
/// as transfers on the engine (at each of its `service_ips` in turn until one connects), their
/// replies read strictly by the format and merged.
struct HTTPDNSLookup {
    var mapName: String
    var service: HTTPDNSSpec
    var host: String
    var ipVersion: IPVersionPreference
    var caFile: String?
    /// The time a signed query is signed at.
    var wallClock: WallClock
    /// The run's secrets: a body that echoes one is quoted from its masked copy (nil: none).
    var redactor: Redactor?
    /// The user population asked as: its address and subnet fill the URL's `{client}` and
    /// `{client_subnet}`; nil: as this machine.
    var client: ClientPopulation? = nil

    /// Answers of HTTPDNS bodies are small; anything past this is not an answer anyway.
    private static let bodyLimit = 64 * 1024

    /// One query's answer and the service address it came from (nil: the URL's host, resolved).
    private typealias Answered = (answer: HTTPDNSAnswer, at: String?)

    func run(on engine: TransferEngine, completion: @escaping (Result<Resolution, TransferError>) -> Void) {
        let wire = service.format.wire(askingAs: client)
        let queries: [HTTPDNSQuery]
        do throws(HTTPDNSProblem) {
            let template = client.map {
                HTTPDNSQueryURL.fillingClient(service.urlTemplate, address: $0.address.text, subnet: $0.subnet.description)
            } ?? service.urlTemplate
            queries = try wire.queries(template: template, host: host, ipVersion: ipVersion)
        } catch {
            completion(.failure(TransferError(kind: .resolve, message: "\(label) cannot ask for '\(host)': \(error)")))
            return
        }
        var answers: [(query: HTTPDNSQuery, result: Result<Answered, TransferError>)?] = Array(repeating: nil, count: queries.count)
        var remaining = queries.count
        let settle = { (index: Int, result: Result<Answered, TransferError>) in
            answers[index] = (queries[index], result)
            remaining -= 1
            if remaining == 0 { completion(merge(answers.compactMap { $0 })) }
        }
        for (index, query) in queries.enumerated() {
            let sent: String
            do throws(HTTPDNSProblem) {
                sent = try service.auth?.authorizedURL(query.url, now: wallClock.now()) ?? query.url
            } catch {
                settle(index, .failure(TransferError(kind: .resolve, message: "\(label) at \(query.label): \(error)")))
                continue
            }
            // The signed or encrypted URL is sent and never shown: texts name the query's label.
            send(query, url: sent, wire: wire, serviceIPIndex: 0, failedAt: [], on: engine) { settle(index, $0) }
        }
    }

    /// `HTTPDNS map 'ali' (alibaba, alibaba-sign)`: the format, and the auth scheme when there is one.
    private var label: String {
        let scheme = service.auth.map { ", \($0.scheme.rawValue)" } ?? ""
        let asked = client.map { " as client '\($0.name)'" } ?? ""
        return "HTTPDNS map '\(mapName)' (\(service.format.name.rawValue)\(scheme))\(asked)"
    }

    /// Sends `query` to the service: at `service_ips[serviceIPIndex]` when the map ships
    /// addresses (SNI and certificate name stay the URL's host), the next one when it fails to
    /// connect or handshake, as the vendors' SDKs do with their bootstrap IPs.
    private func send(
        _ query: HTTPDNSQuery, url: String, wire: any HTTPDNSWireFormat, serviceIPIndex: Int,
        failedAt: [String], on engine: TransferEngine, completion: @escaping (Result<Answered, TransferError>) -> Void
    ) {
        let serviceIP = service.serviceIPs.indices.contains(serviceIPIndex) ? service.serviceIPs[serviceIPIndex] : nil
        let spec = TransferSpec(
            url: url, method: query.method, headers: query.headers, body: query.body.map(RequestBody.bytes),
            connectTo: serviceIP.flatMap { Self.connectTo(url, at: $0) },
            tls: ConnectionTLS(caFile: caFile),
            // ALPN offers h2 over https (some DoH servers speak nothing else); http stays 1.1.
            httpVersion: .auto, timeout: service.timeout, connectTimeout: service.timeout,
            poolKey: PoolKey(["httpdns", mapName, caFile ?? "system", serviceIP?.text ?? "-"]),
            bodyCaptureLimit: Self.bodyLimit)
        engine.submit(spec) { outcome in
            if case .failure(let failure) = outcome.result, let serviceIP,
               serviceIPIndex + 1 < service.serviceIPs.count, Self.isUnreachable(failure, outcome.evidence) {
                send(
                    query, url: url, wire: wire, serviceIPIndex: serviceIPIndex + 1,
                    failedAt: failedAt + ["\(serviceIP.text): \(failure.message)"], on: engine, completion: completion)
                return
            }
            let tried = failedAt.isEmpty ? "" : " (after \(failedAt.joined(separator: "; ")))"
            let at = serviceIP.map { " at \($0.text)" } ?? ""
            completion(answer(of: outcome, query: query, wire: wire, via: at + tried).map { ($0, serviceIP.map { $0.text + tried }) })
        }
    }

    /// Whether a failure means this address could not be reached (no connection, no
    /// handshake), so the next service address may do better.
    private static func isUnreachable(_ failure: TransferError, _ evidence: TransferEvidence) -> Bool {
        switch failure.kind {
        case .connect, .tls: true
        case .timeout: evidence.connectedIP == nil
        case .resolve, .http, .io: false
        }
    }

    /// curl's `--connect-to` for reaching `url`'s host at `address` on the same port.
    private static func connectTo(_ url: String, at address: IPAddress) -> String? {
        guard let parsed = PlanURL.parse(url) else { return nil }
        let host = parsed.host.utf8.contains(UInt8(ascii: ":")) ? "[\(parsed.host)]" : parsed.host
        return "\(host):\(parsed.port):\(address.urlHost):\(parsed.port)"
    }

    private func answer(
        of outcome: TransferOutcome, query: HTTPDNSQuery, wire: any HTTPDNSWireFormat, via: String
    ) -> Result<HTTPDNSAnswer, TransferError> {
        let asked = "\(label) at \(query.label)\(via)"
        switch outcome.result {
        case .failure(let failure):
            let what = failure.kind == .timeout ? "no answer within \(service.timeout.planNotation)" : failure.message
            return .failure(TransferError(kind: .resolve, message: "\(asked): \(what)"))
        case .success(let response):
            var body = response.body
            if let auth = service.auth, (200..<300).contains(response.status) {
                do throws(HTTPDNSProblem) {
                    body = try auth.decryptAnswer(body: body)
                } catch {
                    return .failure(TransferError(kind: .resolve, message: "\(asked) answered HTTP \(response.status): \(error)"))
                }
            }
            let reply = HTTPDNSReply(status: response.status, headers: response.headers, body: body)
            do throws(HTTPDNSProblem) {
                return .success(try wire.answer(to: query, host: host, reply: reply))
            } catch {
                let shown = maskedReading(reply, query: query, wire: wire, failedWith: error)
                return .failure(TransferError(kind: .resolve, message: "\(asked) answered \(text(of: shown, reply: reply))"))
            }
        }
    }

    /// `error`, or — when the body holds a secret (a service that echoes the token it was
    /// asked with) — the error the format gives for the body with its secrets masked. A format
    /// quotes the start of a body it cannot read; quoting the masked body means the quote can
    /// never be cut inside a secret and leave most of it to read.
    private func maskedReading(
        _ reply: HTTPDNSReply, query: HTTPDNSQuery, wire: any HTTPDNSWireFormat, failedWith error: HTTPDNSProblem
    ) -> HTTPDNSProblem {
        guard let redactor, !redactor.isEmpty else { return error }
        let masked = redactor.redact(reply.body)
        guard masked != reply.body else { return error }
        do throws(HTTPDNSProblem) {
            _ = try wire.answer(to: query, host: host, reply: HTTPDNSReply(status: reply.status, headers: reply.headers, body: masked))
            // Masked, the body reads: say what failed without quoting it.
            return HTTPDNSProblem(kind: error.kind, detail: "an answer that cannot be read (its body holds a secret, not shown)")
        } catch {
            return error
        }
    }

    /// What follows "answered" for a reply the format could not read.
    private func text(of error: HTTPDNSProblem, reply: HTTPDNSReply) -> String {
        if error.kind == .noAnswer && reply.body.isEmpty && service.auth?.scheme.signs == false {
            // DNSPod answers an empty body both for "no record" and for a query it could not decrypt.
            return "HTTP \(reply.status): \(error); the service also answers "
                + "an empty body when it cannot decrypt the query: is the key right?"
        }
        // The service's own error text already names its HTTP status.
        return error.kind == .serviceError ? "\(error)" : "HTTP \(reply.status): \(error)"
    }

    /// One query's failure fails the lookup unless another query answered (an A query that
    /// answers while its AAAA twin has none is a good answer).
    private func merge(_ answers: [(query: HTTPDNSQuery, result: Result<Answered, TransferError>)]) -> Result<Resolution, TransferError> {
        var addresses: [IPAddress] = []
        var ttl: Int?
        var firstError: TransferError?
        var servedAt: [String] = []
        for (_, result) in answers {
            switch result {
            case .success(let answered):
                addresses += answered.answer.addresses.filter { !addresses.contains($0) }
                if let answerTTL = answered.answer.ttl { ttl = min(ttl ?? answerTTL, answerTTL) }
                if let at = answered.at, !servedAt.contains(at) { servedAt.append(at) }
            case .failure(let error):
                firstError = firstError ?? error
            }
        }
        guard !addresses.isEmpty else {
            return .failure(firstError ?? TransferError(kind: .resolve, message: "\(label) has no address for '\(host)'"))
        }
        var source = "\(label) via \(answers.map(\.query.label).joined(separator: " + "))"
        if !servedAt.isEmpty { source += " at \(servedAt.joined(separator: ", "))" }
        if let ttl { source += ", ttl \(ttl)s" }
        return .success(Resolution(addresses: addresses, source: source, lookupTime: .zero, ttl: ttl))
    }
}
