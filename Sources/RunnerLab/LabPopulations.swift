#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LabDNS {
    /// A group of users the lab's HTTPDNS service answers apart, as a real one answers by the
    /// client's network: a query that names a client (DNSPod's and Alibaba's `ip=`, Volcengine's
    /// `ip=`, the in-house JSON service's `ip=`, DoH JSON's `edns_client_subnet=`) in `subnet`
    /// gets `records` for the names listed there; any other query gets the table.
    public struct Population: Sendable {
        public let name: String
        /// An IPv4 CIDR.
        public let subnet: String
        public let records: [String: Record]
    }

    /// Where nothing listens: the edge a population is sent to that is down.
    public static let deadEdge = "127.0.0.9"

    /// Four populations for `api.lab.test`: one sent to the primary edge (up), one to an edge
    /// that is down (`deadEdge`), one to the replica (up: another region's edge, for a rule on
    /// where a population may be sent), and one more sent to the primary (an edge two
    /// populations share). Their TTL is 120 s, the table's 60.
    ///
    /// Each also gets `rank.lab.test`'s three rank edges (and ::1) in an order of its own, the dead
    /// edge first for bj-unicom (as in the table) and gd-telecom: whatever the order, ranking
    /// picks `LabAddress.fastRankEdge`, and without ranking each population's first address.
    public static let populations: [Population] = [
        Population(
            name: "gd-mobile", subnet: "120.196.0.0/16",
            records: ["api.lab.test": Record(ipv4: [LabAddress.primary], ttl: 120), "rank.lab.test": rankRecord(.slow, .fast, .dead)]),
        Population(
            name: "bj-unicom", subnet: "123.112.0.0/16",
            records: ["api.lab.test": Record(ipv4: [deadEdge], ttl: 120), "rank.lab.test": rankRecord(.dead, .slow, .fast)]),
        Population(
            name: "sh-telecom", subnet: "101.80.0.0/16",
            records: ["api.lab.test": Record(ipv4: [LabAddress.replica], ttl: 120), "rank.lab.test": rankRecord(.fast, .dead, .slow)]),
        Population(
            name: "gd-telecom", subnet: "113.96.0.0/16",
            records: ["api.lab.test": Record(ipv4: [LabAddress.primary], ttl: 120), "rank.lab.test": rankRecord(.dead, .fast, .slow)]),
    ]

    private enum RankEdge {
        case fast, slow, dead

        var address: String {
            switch self {
            case .fast: LabAddress.fastRankEdge
            case .slow: LabAddress.slowRankEdge
            case .dead: LabAddress.deadRankEdge
            }
        }
    }

    /// A population's `rank.lab.test`: the rank edges in this order, then ::1, TTL 120.
    private static func rankRecord(_ edges: RankEdge...) -> Record {
        Record(ipv4: edges.map(\.address), ipv6: [LabAddress.ipv6], ttl: 120)
    }

    /// The bench's populations: a client in 10.77.K.0/24 (K from 0 to 255) is sent to
    /// `benchEdgesPerPopulation` of the first `benchEdgeCount` bench edges, starting at the
    /// (K × 5)th, so that 30 populations share 50 edges three times over.
    public static let benchPopulations = "10.77.0.0/16"
    public static let benchEdgeCount = 50
    public static let benchEdgesPerPopulation = 5

    /// The bench population of `value` (an IPv4 address as a number), nil outside `benchPopulations`.
    private static func benchPopulation(of value: UInt32) -> Population? {
        guard value >> 16 == 10 << 8 | 77 else { return nil }
        let number = Int((value >> 8) & 0xFF)
        let edges = (0..<benchEdgesPerPopulation).map { LabAddress.benchEdge((number * benchEdgesPerPopulation + $0) % benchEdgeCount + 1) }
        return Population(
            name: "bench-\(number)", subnet: "10.77.\(number).0/24", records: ["api.lab.test": Record(ipv4: edges, ttl: 120)])
    }

    /// The population a client belongs to: `client` is an address or a CIDR (its address
    /// counts); nil for none, or for text that is neither.
    static func population(of client: String) -> Population? {
        let address = client.split(separator: "/", maxSplits: 1).first.map(String.init) ?? client
        guard let value = ipv4(address) else { return nil }
        if let bench = benchPopulation(of: value) { return bench }
        return populations.first { population in
            let parts = population.subnet.split(separator: "/")
            guard parts.count == 2, let network = ipv4(String(parts[0])), let length = UInt32(parts[1]), length <= 32 else { return false }
            let mask: UInt32 = length == 0 ? 0 : ~UInt32(0) << (32 - length)
            return value & mask == network & mask
        }
    }

    private static func ipv4(_ text: String) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }
}
