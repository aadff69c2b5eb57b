import RunnerAppTrust

/// An app named under `apps:`: the trust files it ships, read as its platforms read them, so
/// that a result can be checked as the app's HTTP stack would check it (`app:` on a scenario).
public struct AppDefinition: Sendable, Equatable {
    public var name: String
    /// Where the app is named in the plan.
    public var location: SourceLocation
    public var android: Android?
    public var ios: IOS?
    /// The pins an Android app gives OkHttp's `CertificatePinner` in code.
    public var okhttp: OkHttpPins?
    /// Where each of `okhttp`'s patterns is written in the plan, in their order.
    public var okhttpPatternLocations: [SourceLocation] = []
    /// How long before a pin-set expires it is warned of (`pin_warn`, 30 days by default).
    public var pinWarning: Duration

    public static let defaultPinWarning: Duration = .seconds(30 * 86_400)

    public init(
        name: String, location: SourceLocation, android: Android? = nil, ios: IOS? = nil, okhttp: OkHttpPins? = nil,
        pinWarning: Duration = defaultPinWarning
    ) {
        self.name = name
        self.location = location
        self.android = android
        self.ios = ios
        self.okhttp = okhttp
        self.pinWarning = pinWarning
    }

    /// `android:`: the Network Security Config (the platform's defaults without one) for a build
    /// of `targetSDK`, debuggable or not.
    public struct Android: Sendable, Equatable {
        public var config: AndroidNetworkSecurityConfig
        /// The file's path (plan-relative, as resolved); nil when the app has none.
        public var file: String?
        public var targetSDK: Int
        public var debuggable: Bool
        /// The keys each `@raw/NAME` anchor's file holds (base64 SHA-256 SPKI), by anchor.
        public var rawAnchorKeys: [String: [String]] = [:]

        /// Android's own default when a plan does not say (the Play Store's floor since 2024).
        public static let defaultTargetSDK = 34

        public init(config: AndroidNetworkSecurityConfig, file: String?, targetSDK: Int, debuggable: Bool) {
            self.config = config
            self.file = file
            self.targetSDK = targetSDK
            self.debuggable = debuggable
        }
    }

    /// `ios:`: the Info.plist's ATS, NSPinnedDomains and TrustKit settings, on iOS `version`.
    public struct IOS: Sendable, Equatable {
        public var settings: IOSTrustSettings
        public var file: String
        public var version: Int

        /// The iOS a plan means when it does not say: 17, where ATS applies to IP addresses.
        public static let defaultVersion = 17

        public init(settings: IOSTrustSettings, file: String, version: Int) {
            self.settings = settings
            self.file = file
            self.version = version
        }
    }
}
