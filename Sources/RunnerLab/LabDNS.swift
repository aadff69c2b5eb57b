/// The lab's HTTPDNS service: the names it knows, what it answers for each, and where to ask.
///
/// Every format (`Format`) serves the same table on every lab address and both ports; names are
/// matched without regard to case or a trailing dot. Names that are in neither `records` nor `faults`
/// get each format's "no such name" (DNSPod: its "no record" forms, see `DNSPodEndpoint`; Alibaba, Volcengine, JSON: empty lists;
/// DoH JSON: Status 3; DoH wire: NXDOMAIN), except for the few names one format alone knows
/// (`jsonOnlyRecords`, `dohOnlyNames`, `vendorSampleNames`) and those only the lab's DNS servers
/// know (`resolverOnlyRecords`, answered with no addresses). Lookups are counted per format and name (`Lab.httpdnsLookups`).
public enum LabDNS {
    /// What the service answers for one name.
    public struct Record: Sendable, Equatable {
        /// IPv4 addresses, in answer order.
        public let ipv4: [String]
        /// IPv6 addresses, in answer order.
        public let ipv6: [String]
        /// Seconds, as every format reports it.
        public let ttl: Int
        /// DoH only: the name is an alias, answered as a CNAME record (type 5) to this name before the
        /// addresses; the other formats have no place for it and answer just the addresses. DoH JSON
        /// gives this record's addresses to the target; DoH wire format follows the alias in the
        /// table and answers the target's own records.
        public let canonicalName: String?

        public init(ipv4: [String] = [], ipv6: [String] = [], ttl: Int = 60, canonicalName: String? = nil) {
            self.ipv4 = ipv4
            self.ipv6 = ipv6
            self.ttl = ttl
            self.canonicalName = canonicalName
        }
    }

    /// What a fault host does instead of answering; the same in every format.
    public enum Fault: String, Sendable, CaseIterable {
        /// A well-formed answer with no addresses (DNSPod: a "no record" form; Alibaba: empty lists;
        /// DoH: Status 0 without Answer).
        case empty
        /// HTTP 200 with `garbagePage` as text/html, as a captive portal or broken proxy sends.
        case garbage
        /// HTTP 500 with `serverErrorText`.
        case serverError
        /// The correct answer `slowAnswer`, but only after `slowDelay`.
        case slow
        /// No response at all: the connection stays open until the client gives up or the lab stops.
        case hang
    }

    /// One of the HTTPDNS dialects the lab speaks.
    public enum Format: String, Sendable, CaseIterable {
        /// DNSPod / Tencent D+ text: `/httpdns/dnspod/d?dn=HOST[,HOST…][&ttl=1][&type=aaaa|addrs][&clientip=1]`;
        /// with `alg=des|aes`, the enterprise interface: `dn`, `ip` and the answer encrypted under `dnspodKey`.
        case dnspod
        /// Alibaba Cloud EMAS JSON: `/httpdns/alibaba/{account}/d?host=HOST[&query=4|6|4,6]`.
        case alibaba
        /// Alibaba Cloud EMAS `/v2/d`, signed (and in modes 1 and 2 encrypted): the template names
        /// the account and host, which a plan's `auth: {scheme: alibaba-v2}` signs (secret
        /// `alibabaV2Secret`, key `alibabaV2Key`).
        case alibabaV2 = "alibaba-v2"
        /// DNS-over-HTTPS JSON (application/dns-json): `/httpdns/doh/resolve?name=HOST[&type=A|AAAA|1|28]`.
        case dohJSON = "doh-json"
        /// Volcengine HTTPDNS, signed: `/httpdns/volcengine/resolve?domain=HOST&account_id=ID&timestamp=TS&sign=S[&type=A|AAAA][&ip=IP]`
        /// → `{"data":{"ipv4":[…],"ipv6":[…],"ttl":T}}`; the template has no `timestamp` and `sign`,
        /// which a plan's `auth: {scheme: volcengine-sign}` appends (secret `volcengineSecret`).
        case volcengine
        /// In-house JSON (read by a plan's `format: json` with `answer:` paths):
        /// `/httpdns/json/v1/resolve?name=HOST` → `{"answer":{"v4":[…],"v6":[…],"ttl":T}}`; it alone also
        /// serves `jsonOnlyRecords`.
        case json
        /// RFC 8484 DNS over HTTPS, wire format: `/dns-query`, GET `?dns=BASE64URL` or POST
        /// `application/dns-message`; the name travels inside the DNS message, so the template has no
        /// `{host}`. It alone also answers `dohOnlyNames`.
        case doh

        /// The path and query of a lookup, with `{host}` where the name goes (a plan's URL template).
        public var pathTemplate: String {
            switch self {
            case .dnspod: "/httpdns/dnspod/d?dn={host}&ttl=1"
            case .alibaba: "/httpdns/alibaba/\(LabDNS.account)/d?host={host}"
            case .alibabaV2: "/v2/d?id=\(LabDNS.account)&dn={host}"
            case .dohJSON: "/httpdns/doh/resolve?name={host}"
            case .volcengine: "/httpdns/volcengine/resolve?domain={host}&account_id=\(LabDNS.volcengineAccount)"
            case .json: "/httpdns/json/v1/resolve?name={host}"
            case .doh: "/dns-query"
            }
        }
    }

    /// Names with addresses, keyed by lower-case name without a trailing dot.
    public static let records: [String: Record] = [
        "api.lab.test": Record(ipv4: [LabAddress.primary, LabAddress.replica], ipv6: [LabAddress.ipv6]),
        "sni.lab.test": Record(ipv4: [LabAddress.sniOnly]),
        "expired.lab.test": Record(ipv4: [LabAddress.expired]),
        // Nothing listens on .9: one address works and one refuses connections.
        "split.lab.test": Record(ipv4: [LabAddress.primary, "127.0.0.9"]),
        "v6only.lab.test": Record(ipv6: [LabAddress.ipv6]),
        "shortttl.lab.test": Record(ipv4: [LabAddress.primary], ttl: 1),
        "cname.lab.test": Record(ipv4: [LabAddress.primary], canonicalName: "api.lab.test"),
        // For an SDK's ranking (`Lab.rankPort`): the edge that refuses first, the slow one next,
        // the fast one last, so that only ranking picks the fast one; ::1 for a per-family pick.
        "rank.lab.test": Record(
            ipv4: [LabAddress.deadRankEdge, LabAddress.slowRankEdge, LabAddress.fastRankEdge], ipv6: [LabAddress.ipv6]),
    ]

    /// Names only the lab's DNS servers know (`LabResolver`, honest and lying), keyed like
    /// `records`: every HTTPDNS format answers them as it answers `Fault.empty` (its "no record"
    /// form: DNSPod an empty body, Alibaba and Volcengine and JSON empty lists, DoH Status 0 / NOERROR
    /// without answers), so that a map falls back to the system resolver, which a plan's
    /// `resolver:` points at the lab's (`Lab.dnsPort`). `fallback.lab.test`: A `LabAddress.primary`
    /// and `LabAddress.replica`, AAAA ::1 (TTL 60; both in the primary certificate's names).
    public static let resolverOnlyRecords: [String: Record] = [
        "fallback.lab.test": Record(ipv4: [LabAddress.primary, LabAddress.replica], ipv6: [LabAddress.ipv6]),
    ]

    /// Names only `Format.json` knows, keyed like `records`: well-formed JSON that a strict client must
    /// refuse. `badjson.lab.test` answers a `v4` entry that is not an address; `negttl.lab.test` a
    /// TTL of -5. Every other format answers them as names it does not know.
    public static let jsonOnlyRecords: [String: Record] = [
        "badjson.lab.test": Record(ipv4: [LabAddress.primary, "not-an-address"]),
        "negttl.lab.test": Record(ipv4: [LabAddress.primary], ttl: -5),
    ]

    /// What a name only `Format.doh` knows answers; every other format answers it as a name it does
    /// not know.
    public enum DoHOnlyAnswer: Sendable, Equatable {
        /// RCODE SERVFAIL, no answers.
        case serverFailure
        /// RCODE REFUSED, no answers.
        case refused
        /// NOERROR with TC set and no answers, as a UDP answer that did not fit.
        case truncated
        /// `record`, with the HTTP header `Age: age`: a cached answer, `age` seconds old.
        case aged(Record, age: Int)
    }

    /// Names only `Format.doh` knows, keyed like `records`: the DNS-level failures a wire-format
    /// client must tell apart from "no answer", and an answer whose TTL the HTTP `Age` shortens
    /// (`aged.lab.test`: one A record with TTL 100, `Age: 30`).
    public static let dohOnlyNames: [String: DoHOnlyAnswer] = [
        "servfail.lab.test": .serverFailure,
        "refused.lab.test": .refused,
        "truncated.lab.test": .truncated,
        "aged.lab.test": .aged(Record(ipv4: [LabAddress.primary], ttl: 100), age: 30),
    ]

    /// An answer in one of the forms the vendors' own samples show, served by the one format it
    /// belongs to.
    public enum VendorSample: Sendable, Equatable {
        /// DNSPod: the whole body `0`, a "no record" form.
        case dnspodZero
        /// Alibaba `/d`: `{"host":H,"ttl":60}`, neither `ips` nor `ipsv6` (the Android SDK's own
        /// test): no record.
        case alibabaWithoutIPs
        /// Alibaba `/d`: `record`'s addresses, with the fields a client does not need in odd types:
        /// `extra` an object, `origin_ttl` a string, `client_ip` empty.
        case alibabaOddUnusedFields(Record)
        /// Alibaba `/v2/d`: `record`'s answer with `data.cip` (the client the service saw: the
        /// query's `cip`, else the connection's address) and, in mode 0, no `mode` key (the Node
        /// SDK's sample).
        case alibabaV2WithoutMode(Record)
        /// Alibaba `/v2/d`: `record`'s answer with `mode` a number.
        case alibabaV2NumericMode(Record)

        /// The format that serves it.
        public var format: Format {
            switch self {
            case .dnspodZero: .dnspod
            case .alibabaWithoutIPs, .alibabaOddUnusedFields: .alibaba
            case .alibabaV2WithoutMode, .alibabaV2NumericMode: .alibabaV2
            }
        }

        /// The addresses it answers with; nil for a "no record" form.
        public var record: Record? {
            switch self {
            case .dnspodZero, .alibabaWithoutIPs: nil
            case .alibabaOddUnusedFields(let record), .alibabaV2WithoutMode(let record), .alibabaV2NumericMode(let record): record
            }
        }
    }

    /// Names answered in a vendor sample's form by its format (`VendorSample.format`), keyed like
    /// `records`; every other format answers them as names it does not know. The other sample forms
    /// come from the query itself: DNSPod answers `0-0` for a name without addresses asked with
    /// `type=addrs`, `host.:0` for one in a batch, and `host|clientip` for one asked alone with
    /// `clientip=1`.
    public static let vendorSampleNames: [String: VendorSample] = [
        "zero.lab.test": .dnspodZero,
        "noips.lab.test": .alibabaWithoutIPs,
        "oddfields.lab.test": .alibabaOddUnusedFields(Record(ipv4: [LabAddress.primary])),
        "nomode.lab.test": .alibabaV2WithoutMode(Record(ipv4: [LabAddress.primary])),
        "numbermode.lab.test": .alibabaV2NumericMode(Record(ipv4: [LabAddress.primary])),
    ]

    /// The sample `host` is answered as in `format`, if any.
    static func vendorSample(_ host: String, in format: Format) -> VendorSample? {
        guard let sample = vendorSampleNames[canonicalName(host)], sample.format == format else { return nil }
        return sample
    }

    /// Names that misbehave, keyed like `records`.
    public static let faults: [String: Fault] = [
        "empty.lab.test": .empty,
        "garbage.lab.test": .garbage,
        "error.lab.test": .serverError,
        "slow.lab.test": .slow,
        "hang.lab.test": .hang,
    ]

    /// What `Fault.slow` answers once `slowDelay` has passed.
    public static let slowAnswer = Record(ipv4: [LabAddress.primary])
    /// How long `Fault.slow` keeps the client waiting.
    public static let slowDelay: Duration = .seconds(3)
    /// The body of `Fault.garbage`.
    public static let garbagePage = "<html><body>Bad gateway</body></html>"
    /// The body of `Fault.serverError`.
    public static let serverErrorText = "httpdns backend failed\n"
    /// The TTL Alibaba answers carry when they have no addresses.
    public static let noAnswerTTL = 60
    /// The Alibaba account in `Format.alibaba.pathTemplate`; any account but `refusedAccount` works.
    public static let account = "lab"
    /// The Alibaba account the service refuses: 403 `{"code":"InvalidAccount"}`.
    public static let refusedAccount = "bad"
    /// The Alibaba account whose unsigned interface is switched off: `/d` answers 403
    /// `{"code":"UnsignedInterfaceDisabled"}`; only `/sign_d` resolves.
    public static let signedOnlyAccount = "signed"
    /// The secret the lab's `/sign_d` checks signatures with (any account).
    public static let alibabaSecret = "lab-alibaba-secret"
    /// The secret the lab's `/v2/d` checks HMAC-SHA256 signatures with, hex as the console shows it.
    public static let alibabaV2Secret = "6c61622d616c696261626176322d736563726574"
    /// The AES-128 key of `/v2/d`'s modes 1 and 2, hex.
    public static let alibabaV2Key = "6c61622d76322d6165732d6b65792121"
    /// The `/v2/d` credentials under the names the lab's plans read them by (`${secret:…}`).
    public static let credentialsEnvironment = [
        "LAB_ALIBABA_V2_SECRET": alibabaV2Secret, "LAB_ALIBABA_V2_KEY": alibabaV2Key,
    ]
    /// How far ahead a signature's expiry `t` may be, as the real service bounds it.
    public static let alibabaMaxValidity = 24 * 3600
    /// The key of DNSPod D+'s encrypted interface (`alg=des|aes` on `Format.dnspod`'s path, any `id`).
    /// DES uses its first 8 bytes ("lab-dnsp"); AES-128 the key right-padded with "0" to 16 bytes
    /// ("lab-dnspod-key00"), as the vendor's SDK pads a short key. A query encrypted under another
    /// key gets 200 with an empty body.
    public static let dnspodKey = "lab-dnspod-key"
    /// The secret Volcengine's signed interface (`Format.volcengine`) checks `sign` with (any account).
    public static let volcengineSecret = "lab-volcengine-secret"
    /// The `account_id` in `Format.volcengine.pathTemplate`; the lab accepts any.
    public static let volcengineAccount = "2100000000"
    /// How far ahead a Volcengine `timestamp` (the query's expiry, Unix milliseconds) may be: 24 hours,
    /// as Alibaba bounds its expiry (Volcengine does not document a bound; the lab's choice).
    public static let volcengineMaxValidity: Int64 = 24 * 3600 * 1000

    /// A lookup URL template for `format` on the lab, e.g. `http://127.0.0.2:18080/httpdns/dnspod/d?dn={host}&ttl=1`.
    public static func urlTemplate(_ format: Format, port: Int, address: String = LabAddress.primary) -> String {
        "http://\(LabError.endpoint(address, port))\(format.pathTemplate)"
    }

    /// The table's spelling of `host`: lower case, without a trailing dot.
    public static func canonicalName(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}
