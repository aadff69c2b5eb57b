/// What a policy's pins say of one verified chain.
public enum AppTrustPinCheck: Sendable, Hashable {
    /// A pin matches the chain (the first matching value).
    case matched(pin: String)
    /// Pins apply and none matches: the app refuses the connection (or reports it, TrustKit's report-only).
    case notMatched
    /// The pins are not checked for this request, and why.
    case notChecked(AppTrustPinsNotEnforced)
}
