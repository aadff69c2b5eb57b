/// How an HTTPDNS map's queries prove the account may ask: signed (`alibaba-sign`,
/// `volcengine-sign`), encrypted (`dnspod-des`, `dnspod-aes`), or signed and optionally
/// encrypted (`alibaba-v2`).
///
/// The secret or key is always a `${secret:…}` value, so it is also among the plan's secrets
/// and masked in every output; `description` masks it as well, so printing a spec shows none.
public enum HTTPDNSAuth: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Alibaba Cloud EMAS: `t` (expiry, Unix seconds) and `s` = MD5 of `HOST-SECRET-t`.
    case alibabaSign(secret: String, validFor: Duration)
    /// Volcengine: `timestamp` (expiry, Unix milliseconds) and `sign` = MD5 of sorted values.
    case volcengineSign(secret: String, validFor: Duration)
    /// DNSPod / Tencent D+: `dn` and `ip` DES-ECB encrypted under the key's first 8 bytes.
    case dnspodDES(key: String)
    /// DNSPod / Tencent D+: `dn` and `ip` AES-128-CBC encrypted, a random IV per value.
    case dnspodAES(key: String)
    /// Alibaba Cloud EMAS `/v2/d`: `exp` (expiry, Unix seconds) and `s` = HMAC-SHA256 under the
    /// hex secret of the sorted parameters; with `encryption`, the query's names and the answer's
    /// data travel encrypted under the hex key. Both as hex digits, as the console shows them.
    case alibabaV2(secret: String, encryption: AlibabaV2Encryption, validFor: Duration)

    /// How `/v2/d` carries the query's names and the answer (`encrypt:`; the `m` parameter).
    public enum AlibabaV2Encryption: Sendable, Equatable {
        /// `m=0`: in clear.
        case none
        /// `m=1`: AES-128-CBC with PKCS#7 padding under a 16-byte key (32 hex digits).
        case aesCBC(key: String)
        /// `m=2`: AES-128-GCM with a 128-bit tag under a 16-byte key (32 hex digits).
        case aesGCM(key: String)

        /// The values of `encrypt:`.
        public enum Name: String, Sendable, CaseIterable {
            case none
            case aesCBC = "aes-cbc"
            case aesGCM = "aes-gcm"
        }

        public var name: Name {
            switch self {
            case .none: .none
            case .aesCBC: .aesCBC
            case .aesGCM: .aesGCM
            }
        }
    }

    /// The schemes as a plan names them.
    public enum Scheme: String, Sendable, Equatable, CaseIterable {
        case alibabaSign = "alibaba-sign"
        case volcengineSign = "volcengine-sign"
        case dnspodDES = "dnspod-des"
        case dnspodAES = "dnspod-aes"
        case alibabaV2 = "alibaba-v2"

        /// The `format` a map must have to use this scheme: a scheme signs or encrypts one
        /// service's queries.
        public var format: HTTPDNSSpec.Format.Name {
            switch self {
            case .alibabaSign: .alibaba
            case .volcengineSign: .json
            case .dnspodDES, .dnspodAES: .dnspod
            case .alibabaV2: .alibabaV2
            }
        }

        /// Whether the scheme signs with an expiry time (`valid_for` applies) rather than encrypting.
        public var signs: Bool {
            switch self {
            case .alibabaSign, .volcengineSign, .alibabaV2: true
            case .dnspodDES, .dnspodAES: false
            }
        }

        /// The key that holds the credential: `secret` for signatures, `key` for ciphers
        /// (`alibaba-v2` takes a `key` too when it encrypts).
        public var credentialKey: String { signs ? "secret" : "key" }
    }

    /// How long a signature is valid when the plan does not say: 10 minutes.
    public static let defaultValidity: Duration = .seconds(600)
    /// The longest `valid_for` a plan may give: 24 hours.
    public static let maximumValidity: Duration = .seconds(24 * 3600)

    public var scheme: Scheme {
        switch self {
        case .alibabaSign: .alibabaSign
        case .volcengineSign: .volcengineSign
        case .dnspodDES: .dnspodDES
        case .dnspodAES: .dnspodAES
        case .alibabaV2: .alibabaV2
        }
    }

    /// The scheme and its validity; the secret or key as `***`.
    public var description: String {
        switch self {
        case .alibabaSign(_, let validFor), .volcengineSign(_, let validFor):
            "\(scheme.rawValue) (secret ***, valid for \(validFor.planNotation))"
        case .dnspodDES, .dnspodAES:
            "\(scheme.rawValue) (key ***)"
        case .alibabaV2(_, let encryption, let validFor):
            "\(scheme.rawValue) (secret ***, encrypt \(encryption.name.rawValue)\(encryption == .none ? "" : ", key ***"), "
                + "valid for \(validFor.planNotation))"
        }
    }

    public var debugDescription: String { description }

    /// What `dump` shows: the scheme alone.
    public var customMirror: Mirror { Mirror(self, children: ["scheme": scheme.rawValue], displayStyle: .enum) }
}
