/// Whose rules a policy states (`runner app show`'s `platform`).
public enum AppTrustPlatform: String, Sendable, Hashable, CaseIterable {
    case android
    case ios
    case okhttp
}
