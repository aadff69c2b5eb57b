/// The trust rules an app's HTTP stack applies to one host: what `runner app show` prints and
/// what the engine checks a verified chain against.
///
/// Pins are base64 SHA-256 SPKI values whatever the file's spelling (Android's `pin`, ATS's
/// `SPKI-SHA256-BASE64`, TrustKit's hashes, OkHttp's `sha256/`). `pins` match any certificate of
/// the verified chain (root included), except NSPinnedDomains' where `leafPins` must match the
/// leaf and `caPins` a certificate other than the leaf.
public struct AppTrustPolicy: Sendable, Hashable {
    public var platform: AppTrustPlatform
    /// The matched entry; nil for the platform's default.
    public var source: AppTrustSource?
    /// Whether the app may send `http://` to this host.
    public var cleartextPermitted: Bool
    /// `system`, `user`, `@raw/NAME` (Android); `["system"]` elsewhere.
    public var anchors: [String]
    /// Android anchors whose `overridePins` skips the pin check for a chain they verify.
    public var anchorsOverridingPins: [String]
    /// Every SHA-256 pin declared for this host (leaf and CA pins of NSPinnedDomains included).
    public var pins: [String]
    /// NSPinnedDomains' `NSPinnedLeafIdentities`: one must match the leaf.
    public var leafPins: [String]
    /// NSPinnedDomains' `NSPinnedCAIdentities`: one must match a certificate other than the leaf.
    public var caPins: [String]
    /// OkHttp's `sha1/` pins, kept apart (they match a SHA-1 of the SPKI).
    public var sha1Pins: [String]
    /// `yyyy-MM-dd`, the day the pins stop applying (UTC here: the device's zone is unknown).
    public var pinsExpire: String?
    /// Whether the pins are checked for this request.
    public var pinsEnforced: Bool
    /// Why not, when `pinsEnforced` is false.
    public var whyNotEnforced: AppTrustPinsNotEnforced?
    /// `"1.0"`…`"1.3"`: ATS's minimum TLS version (iOS; nil where ATS does not apply).
    public var tlsMinimum: String?
    /// Whether ATS requires forward secrecy (ECDHE suites) (iOS; nil where ATS does not apply).
    public var forwardSecrecy: Bool?
    /// ATS's smallest RSA key in the chain (2048) (iOS; nil where ATS does not apply).
    public var minimumRSAKeyBits: Int?
    /// ATS's smallest EC key in the chain (256) (iOS; nil where ATS does not apply).
    public var minimumECKeyBits: Int?
    /// ATS's weakest signature hash in the chain, `"SHA-256"` (iOS; nil where ATS does not apply).
    public var minimumSignatureHash: String?

    public init(
        platform: AppTrustPlatform, source: AppTrustSource?, cleartextPermitted: Bool, anchors: [String],
        anchorsOverridingPins: [String] = [], pins: [String], leafPins: [String] = [], caPins: [String] = [],
        sha1Pins: [String] = [], pinsExpire: String? = nil, pinsEnforced: Bool, whyNotEnforced: AppTrustPinsNotEnforced?,
        tlsMinimum: String? = nil, forwardSecrecy: Bool? = nil, minimumRSAKeyBits: Int? = nil, minimumECKeyBits: Int? = nil,
        minimumSignatureHash: String? = nil
    ) {
        self.platform = platform
        self.source = source
        self.cleartextPermitted = cleartextPermitted
        self.anchors = anchors
        self.anchorsOverridingPins = anchorsOverridingPins
        self.pins = pins
        self.leafPins = leafPins
        self.caPins = caPins
        self.sha1Pins = sha1Pins
        self.pinsExpire = pinsExpire
        self.pinsEnforced = pinsEnforced
        self.whyNotEnforced = whyNotEnforced
        self.tlsMinimum = tlsMinimum
        self.forwardSecrecy = forwardSecrecy
        self.minimumRSAKeyBits = minimumRSAKeyBits
        self.minimumECKeyBits = minimumECKeyBits
        self.minimumSignatureHash = minimumSignatureHash
    }
}
