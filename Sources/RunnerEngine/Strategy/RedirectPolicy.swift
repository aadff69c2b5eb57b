import Foundation
import RunnerPlan
import RunnerResults
import RunnerVocabulary

/// One request of a result's hop chain, with the original host (never the IP).
struct HopRequest: Equatable, Sendable {
    var method: String
    var url: PlanURL
    var headers: [Header]
    var body: RequestBody?
}

/// What follows a response: it is the final one, the next hop, or an error.
enum RedirectStep: Equatable, Sendable {
    case final
    case follow(HopRequest)
    case error(TransferError)
}

/// The contract's redirect rules, decided without I/O: `Location` resolved against the hop's
/// original-host URL (never the IP URL), 301/302/303 turn a POST into a GET without a body,
/// 307/308 resend the same method and bytes, `max_redirects` bounds the chain, a loop is an error
/// naming the chain.
enum RedirectPolicy {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// - Parameter chain: the URLs requested so far, first to last (the last is `request`'s).
    static func next(
        status: Int, location: String?, request: HopRequest, chain: [PlanURL], followRedirects: Bool,
        maxRedirects: Int
    ) -> RedirectStep {
        guard followRedirects, redirectStatuses.contains(status), let location, !location.isEmpty else { return .final }
        guard let target = resolve(location, against: request.url) else {
            return .error(TransferError(
                kind: .http, message: "\(status) redirect to '\(location)', which is not an http(s) URL the runner can follow"))
        }
        let redirectsSoFar = chain.count - 1
        if chain.contains(target) {
            return .error(TransferError(
                kind: .http, message: "redirect loop: \((chain + [target]).map(\.description).joined(separator: " → "))"))
        }
        if redirectsSoFar >= maxRedirects {
            return .error(TransferError(
                kind: .http,
                message: "more than \(maxRedirects) redirects (max_redirects): \((chain + [target]).map(\.description).joined(separator: " → "))"))
        }
        var next = request
        next.url = target
        let dropsBody = (status == 303 && request.method != "HEAD") || ((status == 301 || status == 302) && request.method == "POST")
        if dropsBody {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { isBodyHeader($0.name) }
        }
        if target.host != request.url.host || target.port != request.url.port {
            // Credentials the plan gave for one host are not handed to another (curl does the same).
            next.headers.removeAll { isCredentialHeader($0.name) }
        }
        return .follow(next)
    }

    /// `location` resolved against the original-host URL of the hop.
    static func resolve(_ location: String, against base: PlanURL) -> PlanURL? {
        guard let baseURL = URL(string: base.description),
            let resolved = URL(string: location, relativeTo: baseURL)?.absoluteURL
        else { return nil }
        return PlanURL.parse(resolved.absoluteString)
    }

    private static func isBodyHeader(_ name: String) -> Bool {
        ["content-type", "content-length", "content-encoding", "transfer-encoding"].contains(name.lowercased())
    }

    private static func isCredentialHeader(_ name: String) -> Bool {
        ["authorization", "cookie", "proxy-authorization"].contains(name.lowercased())
    }
}
