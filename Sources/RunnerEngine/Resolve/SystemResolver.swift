import Foundation
import RunnerPlan
import RunnerResults

#if canImport(Glibc)
import Glibc
import RunnerVocabulary
#endif

/// The machine's own resolver (getaddrinfo), for `resolver: system`.
enum SystemResolver {
    /// - Parameter clock: what the lookup's time is read on.
    static func resolve(host: String, clock: MonotonicClock) -> Result<Resolution, TransferError> {
        let started = clock.now()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            let reason = String(cString: gai_strerror(status))
            return .failure(TransferError(kind: .resolve, message: "system resolver: cannot resolve '\(host)': \(reason)"))
        }
        var addresses: [IPAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            if let text = numericHost(entry), let address = IPAddress(text), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(TransferError(kind: .resolve, message: "system resolver: no addresses for '\(host)'"))
        }
        let elapsed = clock.elapsed(since: started)
        var resolution = Resolution(addresses: addresses, source: "system resolver", lookupTime: elapsed)
        // getaddrinfo tells neither TTL, nor response code, nor CNAME chain.
        resolution.dns = DNSLookupEvidence(
            resolver: ResolverChoice.system.description, host: host,
            questions: [DNSQuestionEvidence(
                type: "A+AAAA", rcode: nil, addresses: addresses.map(\.text), ttl: nil, aliases: [], duration: elapsed,
                problem: nil)])
        return .success(resolution)
    }

    private static func numericHost(_ entry: addrinfo) -> String? {
        guard let address = entry.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = getnameinfo(address, entry.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
