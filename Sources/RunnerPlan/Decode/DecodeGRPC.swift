import Foundation
import RunnerVocabulary

/// `request.grpc` (the call: a health check, or a method with its message) and `expect.grpc`
/// (its status and serving status). Each section's keys go through one switch with no
/// `default`, so a key added to `GRPCKey` or `GRPCExpectKey` without a decoder does not compile.
extension PlanDecoder {
    /// The call, with what it makes the request (`GRPCCall`); nil after reporting an error.
    func decodeGRPCCall(_ entry: FieldEntry<RequestKey>, context request: Context) -> GRPCCall? {
        let context = request.part(.requestGRPC)
        guard let fields = fields(
            of: entry.value, site: Site(key: "grpc", request), context: context, ownerMark: entry.keyMark, keys: Keys.grpc)
        else { return nil }
        let errorsBefore = errors.count
        var health, method, message, metadata: FieldEntry<GRPCKey>?
        for field in fields.entries {
            switch field.name {
            case .health: health = field
            case .method: method = field
            case .messageBase64: message = field
            case .metadata: metadata = field
            }
        }

        var call: GRPCCall.Method?
        switch (health, method) {
        case (nil, nil):
            report(
                at: fields.ownerMark,
                "missing 'health' or 'method' \(context): the call to make, e.g. health: \"\" (the server's health) or method: /pkg.Service/Method")
        case (let health?, let method?):
            let (first, second) = health.keyMark < method.keyMark ? (health, method) : (method, health)
            report(at: second.keyMark, "only one of 'health' and 'method' may be given \(context); found '\(first.key)' and '\(second.key)'")
        case (let health?, nil):
            if let message {
                report(at: message.keyMark, "'message_base64' \(context) is for 'method'; a health check's message is its service name")
            } else if let service = string(health.value, for: Site(key: "health", context)) {
                call = .health(service: service.value)
            }
        case (nil, let method?):
            if let path = string(method.value, for: Site(key: "method", context)) {
                if Self.isGRPCMethodPath(path.value) {
                    var bytes = Data()
                    if let message, let text = string(message.value, for: Site(key: "message_base64", context)) {
                        let compact = String(text.value.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
                        if let data = Data(base64Encoded: compact) {
                            bytes = data
                        } else {
                            report(at: text.mark, "expected base64 data for \(Site(key: "message_base64", context)), got \(text.quoted)")
                        }
                    }
                    call = .unary(path: path.value, message: bytes)
                } else {
                    report(
                        at: path.mark,
                        "expected a gRPC method such as /pkg.Service/Method for \(Site(key: "method", context)), got \(path.quoted)")
                }
            }
        }

        var headers: [Header] = []
        if let metadata {
            headers = decodeGRPCMetadata(metadata, context: context) ?? []
        }
        guard errors.count == errorsBefore, let call else { return nil }
        return GRPCCall(method: call, metadata: headers)
    }

    /// `metadata:` of a call: header names gRPC allows (lower case; `-bin` values in base64),
    /// none that gRPC itself sets.
    private func decodeGRPCMetadata(_ entry: FieldEntry<GRPCKey>, context: Context) -> [Header]? {
        guard let entries = decodeHeaders(entry.value, site: Site(key: "metadata", context), context: context.part(.headers)) else {
            return nil
        }
        var failed = false
        for entry in entries {
            let name = entry.header.name
            if name != name.lowercased() {
                report(at: entry.keyMark, "gRPC metadata names are lower case \(context): write '\(name.lowercased())'")
                failed = true
            } else if name.hasPrefix("grpc-") || ["content-type", "te"].contains(name) {
                report(at: entry.keyMark, "'\(name)' \(context) is set by gRPC itself; remove it from 'metadata'")
                failed = true
            } else if name.hasSuffix("-bin"), Data(base64Encoded: entry.header.value) == nil {
                report(at: entry.valueMark ?? entry.keyMark, "the value of binary metadata '\(name)' \(context) must be base64")
                failed = true
            }
        }
        return failed ? nil : entries.map(\.header)
    }

    /// `/pkg.Service/Method`: two non-empty parts, neither holding a slash, a space or a `?`.
    static func isGRPCMethodPath(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty else { return false }
        return parts.dropFirst().allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "?" && $0 != "#" }
        }
    }

    /// `expect.grpc: {status, serving}`: `status` a name (`NOT_FOUND`) or a number (5),
    /// `serving` a serving status, for a health check only; on a scenario that makes a call.
    func decodeGRPCExpectation(_ entry: FieldEntry<ExpectKey>, scenario: Context, request: RequestParts?) -> GRPCExpectation? {
        let context = scenario.part(.expectGRPC)
        guard let fields = fields(
            of: entry.value, site: Site(key: "grpc", scenario.part(.expect)), context: context, ownerMark: entry.keyMark,
            keys: Keys.grpcExpect)
        else { return nil }
        var expectation = GRPCExpectation()
        var servingWritten = false
        var failed = false
        if let request, request.grpc == nil {
            report(at: entry.keyMark, "'expect.grpc' \(scenario) checks a gRPC call's answer, but the request makes none: add 'grpc' to it")
            failed = true
        }
        for field in fields.entries {
            func site() -> Site { Site(key: field.key, context) }
            switch field.name {
            case .status:
                guard let text = text(field.value, expected: "a gRPC status such as OK, NOT_FOUND or 5", for: site()) else {
                    failed = true
                    continue
                }
                if let number = Int(text.value), (0...16).contains(number) {
                    expectation.status = GRPCStatusCode(rawValue: number)
                } else if let named = GRPCStatusCode(name: text.value) {
                    expectation.status = named
                } else {
                    let suggestion = Suggestion.closest(to: text.value.uppercased(), among: GRPCStatusCode.names).map { "; did you mean '\($0)'?" } ?? ""
                    report(at: text.mark, "expected a gRPC status (OK, CANCELLED, … UNAUTHENTICATED, or 0–16) for \(site()), got \(text.quoted)\(suggestion)")
                    failed = true
                }
            case .serving:
                let names = GRPCServingStatus.allCases.map(\.name)
                if let choice = choice(field.value, for: site(), among: names), let status = GRPCServingStatus(name: choice.value) {
                    expectation.serving = status
                    servingWritten = true
                    if let call = request?.grpc, !call.isHealthCheck {
                        report(at: field.keyMark, "'serving' \(context) is a health check's answer; \(call.path) is not one")
                        failed = true
                    }
                } else {
                    failed = true
                }
            }
        }
        guard !failed else { return nil }
        // A health check expected to answer OK is expected to be serving unless the plan says.
        if !servingWritten, expectation.status == .ok, request?.grpc?.isHealthCheck == true { expectation.serving = .serving }
        return expectation
    }
}
