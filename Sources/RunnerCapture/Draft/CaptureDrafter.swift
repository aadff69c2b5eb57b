import Foundation
import RunnerPlan
import RunnerVocabulary

/// Turns captures into the plan a person would have written: a scenario per distinct request,
/// repeats merged, redirect chains folded, secrets named, values passed on as flows.
public enum CaptureDrafter {
    /// One capture read from `path`.
    public struct Input: Sendable {
        public var path: String
        public var capture: HARCapture

        public init(path: String, capture: HARCapture) {
            self.path = path
            self.capture = capture
        }
    }

    /// The draft of `inputs`, in capture order (the files in the order given).
    public static func draft(_ inputs: [Input], options: CaptureDraftOptions) -> PlanDraft {
        var drafting = Drafting(labels: EntryLabels(files: inputs.map(\.path)), options: options)
        let requests = drafting.select(inputs)
        drafting.collectAddresses(requests)
        let exchanges = drafting.merge(drafting.fold(requests))
        for exchange in exchanges { drafting.add(exchange) }
        drafting.removeSecretsLeftInClear()
        return drafting.finish(entriesRead: inputs.reduce(0) { $0 + $1.capture.entries.count })
    }
}

/// The drafter's state while it goes through one set of captures.
struct Drafting {
    let labels: EntryLabels
    let options: CaptureDraftOptions
    var scenarios: [DraftScenario] = []
    /// Values each scenario's answer carried, for the flows of later ones.
    var responseValues: [ResponseValue] = []
    var secrets = SecretNames()
    var notes: [String] = []
    var addresses: [HostAddresses] = []
    var usedNames: Set<String> = []
    var usedCaptureNames: Set<String> = []
    /// Scenarios made but not to be written, with why (`removeSecretsLeftInClear`).
    var refused: [String: String] = [:]
    /// What the app's requests so far carried (`sentText(of:)`), one text per request.
    var sentText: [String] = []

    init(labels: EntryLabels, options: CaptureDraftOptions) {
        self.labels = labels
        self.options = options
    }

    // MARK: Selecting

    /// The requests worth a scenario; the others are noted with why.
    mutating func select(_ inputs: [CaptureDrafter.Input]) -> [CapturedRequest] {
        var kept: [CapturedRequest] = []
        for (file, input) in inputs.enumerated() {
            for entry in input.capture.entries {
                let where_ = labels.label(file: file, index: entry.index)
                guard let url = CapturedURL(entry.request.url) else {
                    notes.append("dropped: \(where_) (\(entry.request.method)): not an http or https URL a plan can send")
                    continue
                }
                let shown = "\(entry.request.method.withVisibleControls) \(url.pathOnly.withVisibleControls)"
                guard CapturedURL.isIPLiteral(url.host) || HostName.isValid(url.host) else {
                    notes.append("dropped: \(where_) (\(shown)): the host is not a name a plan takes (letters, digits, '-', '_' and dots)")
                    continue
                }
                if let failure = entry.failure {
                    notes.append("dropped: \(where_) (\(shown)): \(failure)")
                    continue
                }
                if !options.hosts.isEmpty, !options.hosts.contains(where: { Glob.matches($0, url.host) }) {
                    notes.append("dropped: \(where_) (\(shown)): host not in --host")
                    continue
                }
                if let pattern = options.excluded.first(where: { Glob.matches($0, $0.contains("/") ? url.pathOnly : url.host) }) {
                    notes.append("dropped: \(where_) (\(shown)): excluded by --exclude \(pattern)")
                    continue
                }
                let method = entry.request.method.uppercased()
                guard Drafting.isToken(method) else {
                    notes.append("dropped: \(where_) (\(url.pathOnly)): the method is not an HTTP method name")
                    continue
                }
                if let status = entry.response?.status, !(100...599).contains(status) {
                    notes.append("dropped: \(where_) (\(shown)): the recorded status \(status) is not an HTTP status")
                    continue
                }
                if method == "CONNECT" {
                    notes.append("dropped: \(where_) (\(shown)): a proxy tunnel, not a request of the app")
                    continue
                }
                if method == "OPTIONS", RequestBody.header("access-control-request-method", in: entry.request) != nil {
                    notes.append("dropped: \(where_) (\(shown)): a CORS preflight, which the browser sends by itself")
                    continue
                }
                let fromMitmproxy = input.capture.creator?.lowercased().contains("mitmproxy") ?? false
                kept.append(CapturedRequest(entry: entry, file: file, url: url, fromMitmproxy: fromMitmproxy))
            }
        }
        return kept
    }

    // MARK: Folding redirects

    /// Each request with the redirect hops that followed it: a 3xx whose `Location` is the URL
    /// of a later request (the next one to that URL) is one scenario with that request.
    func fold(_ requests: [CapturedRequest]) -> [CapturedExchange] {
        var consumed = Set<Int>()
        var exchanges: [CapturedExchange] = []
        for start in requests.indices where !consumed.contains(start) {
            var hops = [requests[start]]
            var current = start
            while let next = nextHop(after: current, in: requests, consumed: consumed) {
                consumed.insert(next)
                hops.append(requests[next])
                current = next
            }
            exchanges.append(CapturedExchange(hops: hops))
        }
        return exchanges
    }

    private func nextHop(after index: Int, in requests: [CapturedRequest], consumed: Set<Int>) -> Int? {
        let request = requests[index]
        guard let response = request.response, [301, 302, 303, 307, 308].contains(response.status),
            let location = response.regularHeaders.first(where: { $0.name.lowercased() == "location" })?.value ?? response.redirectURL,
            let base = URL(string: request.entry.request.url),
            let resolved = URL(string: location, relativeTo: base)?.absoluteURL,
            let target = CapturedURL(resolved.absoluteString)
        else { return nil }
        // 301/302 turn a POST into a GET as clients do, 303 always; 307/308 keep the method.
        let method = request.entry.request.method.uppercased()
        let expectedMethod = response.status == 303 || ((response.status == 301 || response.status == 302) && method == "POST") ? "GET" : method
        return requests.indices.first { candidate in
            candidate > index && !consumed.contains(candidate)
                && requests[candidate].url.normalized == target.normalized
                && requests[candidate].entry.request.method.uppercased() == (expectedMethod == "HEAD" ? "HEAD" : expectedMethod)
        }
    }

    // MARK: Merging repeats

    /// Identical requests (method, URL and body, redirects included) as one exchange, where the first was.
    mutating func merge(_ exchanges: [CapturedExchange]) -> [CapturedExchange] {
        var merged: [CapturedExchange] = []
        var byKey: [String: Int] = [:]
        for exchange in exchanges {
            let key = Self.identity(of: exchange)
            if let index = byKey[key] {
                merged[index].repeats.append(exchange.first)
            } else {
                byKey[key] = merged.count
                merged.append(exchange)
            }
        }
        return merged
    }

    private static func identity(of exchange: CapturedExchange) -> String {
        let request = exchange.first
        let body = request.body?.bytes.base64EncodedString() ?? ""
        return "\(request.entry.request.method.uppercased()) \(request.url.normalized) \(exchange.hops.count) \(body)"
    }
}

/// `base`, or `base` numbered by `numbered` (from 2) until the name is not `taken`.
func firstFreeName(_ base: String, taken: Set<String>, numbered: (Int) -> String) -> String {
    var name = base
    var number = 1
    while taken.contains(name) {
        number += 1
        name = numbered(number)
    }
    return name
}

/// `*` (any run) and `?` (one character) patterns, as shells match host names; case-insensitive.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern.lowercased()), text = Array(text.lowercased())
        var p = 0, t = 0, star = -1, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
