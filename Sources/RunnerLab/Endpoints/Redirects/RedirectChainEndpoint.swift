/// `/redirect-chain/{n}`: 302 to the relative `/redirect-chain/{n-1}`, until `/redirect-chain/0` answers
/// 200 `chainDone`; n redirects in all, for redirect limits and hop counts.
struct RedirectChainEndpoint: ImmediateEndpoint {
    static let maximumLength = 100
    static let chainDone = "chain done"

    func response(to request: LabRequest) -> LabResponse {
        guard let remaining = Int(request.routeParameter), (0...Self.maximumLength).contains(remaining) else {
            return .badRequest(
                "/redirect-chain/{n} wants 0-\(Self.maximumLength) redirects, got \"\(request.routeParameter)\"")
        }
        if remaining == 0 { return .text(Self.chainDone) }
        return .redirect(.found, to: "/redirect-chain/\(remaining - 1)")
    }
}
