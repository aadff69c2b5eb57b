import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import RunnerHTTPDNS
import _CryptoExtras

/// `/v2/d?id=ACCOUNT&m=MODE&dn=HOST[&q=4|6|4,6][&cip=IP]&v=1.0&exp=EXPIRY&s=SIGNATURE`: Alibaba
/// Cloud EMAS's current API, as its SDKs call it, checked with swift-crypto (an implementation
/// of its own beside the runner's OpenSSL).
///
/// - Signature: `s` must be the hex HMAC-SHA256, under the hex-decoded `LabDNS.alibabaV2Secret`,
///   of the present non-empty parameters among `id, m, dn, cip, q, enc, exp, tags, v, sdns-*`,
///   sorted by name, `k=v` joined with `&`; else 403 `InvalidSignature`. `exp` in Unix seconds,
///   not past (`SignatureExpired`) and at most 24 h ahead (`InvalidDuration`).
/// - `m=1` (AES-128-CBC) and `m=2` (AES-128-GCM): `dn`, `q`, `cip`, `tags`, `sdns-*` come inside
///   `enc`, hex of IV ‖ ciphertext of their JSON object under `LabDNS.alibabaV2Key`; one that does
///   not decrypt is 403 `DecryptionFailed`. The answer's `data` is then base64 of a fresh IV ‖
///   the ciphertext of its JSON, in the same mode.
/// - Answer: `{"code":"success","mode":"M","data":{"answers":[{"dn":H,"v4":{"ips":[…],"ttl":T},"v6":{…}}]}}`
///   with `v4` when `q` has 4 (or is absent), `v6` when it has 6; a name without addresses has
///   empty `ips` and `no_ip_code` `"DomainNotFound"`. `cip` picks the population
///   (`LabDNS.populations`). Account `LabDNS.refusedAccount`: 403 `InvalidAccount`; a missing
///   parameter: 400 `MissingArgument`.
/// - The vendors' sample forms, for the names of `LabDNS.VendorSample.alibabaV2WithoutMode`
///   (`data.cip`, the query's `cip` or else the requester's address; no `mode` key in mode 0) and
///   `.alibabaV2NumericMode` (`mode` a number).
struct AlibabaV2Endpoint: Endpoint {
    let service: HTTPDNSService

    /// The parameters the signature covers, with every `sdns-*`.
    static let signedNames: Set<String> = ["id", "m", "dn", "cip", "q", "enc", "exp", "tags", "v"]

    struct Refusal: Error {
        let code: String
        let status: HTTPResponseStatus
    }

    func respond(to request: LabRequest, on eventLoop: any EventLoop) -> EventLoopFuture<LabResponse> {
        let pairs: [(name: String, value: String)]
        do throws(HTTPDNSBadQuery) {
            pairs = try HTTPDNSService.pairs(request.query)
        } catch {
            return eventLoop.makeSucceededFuture(.badRequest(error.description))
        }
        let names: [String: String]
        let mode: String
        do throws(Refusal) {
            (names, mode) = try Self.check(pairs, now: Date())
        } catch {
            if let dn = HTTPDNSService.parameter("dn", in: pairs) { service.countLookups([dn]) }
            return eventLoop.makeSucceededFuture(.json(.object([("code", .string(error.code))]), status: error.status))
        }
        let hosts = (names["dn"] ?? "").split(separator: ",").map(String.init)
        let asked = Set((names["q"] ?? "4").split(separator: ","))
        let samples = hosts.compactMap { LabDNS.vendorSample($0, in: .alibabaV2) }
        let seenClient = names["cip"] ?? request.connection.remoteAddress
        return service.answer(hosts: hosts, to: request, on: eventLoop, client: names["cip"]) { resolutions in
            var data = Self.data(hosts: hosts, resolutions: resolutions, v4: asked.contains("4"), v6: asked.contains("6"))
            var modeMember: (String, JSONValue)? = ("mode", .string(mode))
            for sample in samples {
                switch sample {
                case .alibabaV2WithoutMode:
                    if let seenClient, case .object(let members) = data { data = .object([("cip", .string(seenClient))] + members) }
                    if mode == "0" { modeMember = nil }
                case .alibabaV2NumericMode: modeMember = ("mode", .int(Int(mode) ?? 0))
                case .dnspodZero, .alibabaWithoutIPs, .alibabaOddUnusedFields: break
                }
            }
            do {
                var members: [(String, JSONValue)] = [("code", .string("success"))]
                if let modeMember { members.append(modeMember) }
                members.append(("data", try Self.seal(data, mode: mode)))
                return .json(.object(members))
            } catch {
                return .text("lab could not encrypt: \(error)\n", status: .internalServerError)
            }
        }
    }

    /// The query's names (decrypted from `enc` in modes 1 and 2) and its mode, once the account,
    /// signature and expiry hold.
    static func check(_ pairs: [(name: String, value: String)], now: Date) throws(Refusal) -> ([String: String], String) {
        for required in ["id", "m", "v", "exp", "s"] where HTTPDNSService.parameter(required, in: pairs) == nil {
            throw Refusal(code: "MissingArgument", status: .badRequest)
        }
        let value = { (name: String) in HTTPDNSService.parameter(name, in: pairs) ?? "" }
        if value("id") == LabDNS.refusedAccount { throw Refusal(code: "InvalidAccount", status: .forbidden) }
        let signed = pairs.filter { (signedNames.contains($0.name) || $0.name.hasPrefix("sdns-")) && !$0.value.isEmpty }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        guard value("s") == signature(signed, secret: LabDNS.alibabaV2Secret) else {
            throw Refusal(code: "InvalidSignature", status: .forbidden)
        }
        guard let expiry = Int(value("exp")) else { throw Refusal(code: "InvalidDuration", status: .forbidden) }
        let nowSeconds = Int(now.timeIntervalSince1970)
        if expiry < nowSeconds { throw Refusal(code: "SignatureExpired", status: .forbidden) }
        if expiry > nowSeconds + LabDNS.alibabaMaxValidity { throw Refusal(code: "InvalidDuration", status: .forbidden) }
        let mode = value("m")
        var names: [String: String] = [:]
        switch mode {
        case "0":
            for pair in pairs where names[pair.name] == nil { names[pair.name] = pair.value }
        case "1", "2":
            guard let object = try? open(value("enc"), mode: mode) else { throw Refusal(code: "DecryptionFailed", status: .forbidden) }
            names = object
        default:
            throw Refusal(code: "InvalidMode", status: .badRequest)
        }
        guard !(names["dn"] ?? "").isEmpty else { throw Refusal(code: "MissingArgument", status: .badRequest) }
        return (names, mode)
    }

    /// Hex HMAC-SHA256 of `text` under a hex secret.
    static func signature(_ text: String, secret: String) -> String {
        let key = SymmetricKey(data: bytes(ofHex: secret))
        return Hex.lowercase(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
    }

    /// The names `enc` carries: hex of IV ‖ ciphertext of a JSON object of strings.
    static func open(_ enc: String, mode: String) throws -> [String: String] {
        let sealed = bytes(ofHex: enc)
        let key = SymmetricKey(data: bytes(ofHex: LabDNS.alibabaV2Key))
        let plaintext: Data
        if mode == "1" {
            plaintext = try AES._CBC.decrypt(sealed.dropFirst(16), using: key, iv: AES._CBC.IV(ivBytes: sealed.prefix(16)))
        } else {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: sealed.prefix(12)), ciphertext: sealed.dropFirst(12).dropLast(16), tag: sealed.suffix(16))
            plaintext = try AES.GCM.open(box, using: key)
        }
        guard let object = try JSONSerialization.jsonObject(with: plaintext) as? [String: String] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }

    /// `data` as mode `mode` sends it: the object itself, or base64 of a fresh IV ‖ its ciphertext.
    static func seal(_ data: JSONValue, mode: String) throws -> JSONValue {
        guard mode != "0" else { return data }
        let key = SymmetricKey(data: bytes(ofHex: LabDNS.alibabaV2Key))
        let plaintext = Data(data.serialized.utf8)
        if mode == "1" {
            let iv = try AES._CBC.IV(ivBytes: (0..<16).map { _ in UInt8.random(in: 0...255) })
            let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: iv)
            return .string((Data(iv) + ciphertext).base64EncodedString())
        }
        let box = try AES.GCM.seal(plaintext, using: key)
        return .string((Data(box.nonce) + box.ciphertext + box.tag).base64EncodedString())
    }

    /// `{"answers":[…]}`: each host's addresses in the families asked.
    static func data(hosts: [String], resolutions: [HTTPDNSResolution], v4: Bool, v6: Bool) -> JSONValue {
        let answers = zip(hosts, resolutions).map { host, resolution -> JSONValue in
            let record: LabDNS.Record? = if case .records(let found) = resolution { found } else { nil }
            let ttl = record?.ttl ?? LabDNS.noAnswerTTL
            func family(_ addresses: [String]) -> JSONValue {
                var members: [(String, JSONValue)] = [("ips", .array(addresses.map(JSONValue.string))), ("ttl", .int(ttl))]
                if addresses.isEmpty { members.append(("no_ip_code", .string("DomainNotFound"))) }
                return .object(members)
            }
            var members: [(String, JSONValue)] = [("dn", .string(LabDNS.canonicalName(host)))]
            if v4 { members.append(("v4", family(record?.ipv4 ?? []))) }
            if v6 { members.append(("v6", family(record?.ipv6 ?? []))) }
            return .object(members)
        }
        return .object([("answers", .array(answers))])
    }

    private static func bytes(ofHex text: String) -> [UInt8] {
        guard case .bytes(let bytes) = Hex.decode(text.utf8) else { return [] }
        return bytes
    }
}
