/// Whose apps use a result's address, as their HTTPDNS SDK picks it from the map's answer
/// (`sdk:`), and the ranking connects behind the pick. Set on every result of a map with
/// `sdk:`; `pickers` is empty for an address no population picks.
public struct PickEvidence: Sendable, Equatable {
    /// The name a map asked as this machine (no `clients:`) picks under.
    public static let thisMachine = "this machine"

    /// A population that picks the address, and why (`fastest connect, 0.3 ms`).
    public struct Picker: Sendable, Equatable {
        /// A client's name, or `PickEvidence.thisMachine`.
        public var client: String
        public var reason: String

        public init(client: String, reason: String) {
            self.client = client
            self.reason = reason
        }
    }

    /// A population whose answer held the address but whose apps use others.
    public struct Elsewhere: Sendable, Equatable {
        public var client: String
        public var addresses: [String]

        public init(client: String, addresses: [String]) {
            self.client = client
            self.addresses = addresses
        }
    }

    /// One ranking connect (a TCP handshake, nothing sent) to an address of the answer.
    public struct RankingConnect: Sendable, Equatable {
        public var address: String
        public var port: Int
        /// The handshake's time; nil when it failed.
        public var time: Duration?
        /// Why it failed (`connection refused`); nil when it connected.
        public var error: String?

        public init(address: String, port: Int, time: Duration?, error: String?) {
            self.address = address
            self.port = port
            self.time = time
            self.error = error
        }

        /// `127.0.0.2:8443 0.3 ms`, `127.0.0.9:8443 connection refused`.
        public var described: String {
            let target = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
            if let time { return target + " " + time.spokenMilliseconds() }
            return target + " " + (error ?? "failed")
        }
    }

    public var map: String
    public var host: String
    /// The profile's plan name, `alibaba-android`.
    public var sdk: String
    /// In the plan's order of the clients (`this machine` alone for a map asked as the machine).
    public var pickers: [Picker]
    /// The populations whose answer held the address and whose apps use another; empty when
    /// every holder picks it.
    public var elsewhere: [Elsewhere]
    /// The ranking connects made for the answers the address was in (empty: ranking off), in
    /// the answer's order.
    public var connects: [RankingConnect]

    public init(
        map: String, host: String, sdk: String, pickers: [Picker], elsewhere: [Elsewhere] = [], connects: [RankingConnect] = []
    ) {
        self.map = map
        self.host = host
        self.sdk = sdk
        self.pickers = pickers
        self.elsewhere = elsewhere
        self.connects = connects
    }

    /// The names of the populations that pick the address (JSON `picked_by`).
    public var pickedBy: [String] { pickers.map(\.client) }

    /// `gd-mobile (fastest connect, 0.31 ms)`, one per picker: the evidence's `picked by` fact.
    public var pickerLines: [String] { pickers.map { "\($0.client) (\($0.reason))" } }

    /// `no population: gd-mobile, bj-unicom pick 127.0.0.2; sh-telecom picks 127.0.0.3`: the fact
    /// for an address no population picks.
    public var unpickedLine: String {
        guard !elsewhere.isEmpty else { return "no population" }
        return "no population: " + elsewhereText
    }

    /// What a failing address no population picks adds to its error or notes.
    public var unpickedConsequence: String {
        "no population's apps use this address (\(map), \(sdk))" + (elsewhere.isEmpty ? "" : ": " + elsewhereText)
    }

    /// The other populations' picks, those that pick the same addresses named together, in the
    /// order they first come.
    private var elsewhereText: String {
        var groups: [(addresses: [String], clients: [String])] = []
        for other in elsewhere {
            if let index = groups.firstIndex(where: { $0.addresses == other.addresses }) {
                groups[index].clients.append(other.client)
            } else {
                groups.append((other.addresses, [other.client]))
            }
        }
        return groups.map { group in
            let picked = group.addresses.isEmpty ? "nothing" : group.addresses.joined(separator: " and ")
            return group.clients.joined(separator: ", ") + (group.clients.count == 1 ? " picks " : " pick ") + picked
        }.joined(separator: "; ")
    }
}

extension Problem {
    /// The problems of a failing pick: one per reason, naming the populations that pick the
    /// address for it: `gd-mobile's apps connect to 127.0.0.9 (first in the answer; ranking
    /// off) and it fails`.
    public static func failingPick(_ pick: PickEvidence, address: String) -> [Problem] {
        var reasons: [String] = []
        var clients: [String: [String]] = [:]
        for picker in pick.pickers {
            if clients[picker.reason] == nil { reasons.append(picker.reason) }
            clients[picker.reason, default: []].append(picker.client)
        }
        return reasons.map { reason in
            let names = clients[reason] ?? []
            let whose = names == [PickEvidence.thisMachine] ? "Apps on this machine"
                : names.count == 1 ? "\(names[0])'s apps" : "The apps of \(names.joined(separator: ", "))"
            return Problem(
                subject: "pick " + names.joined(separator: ", "), expected: "a working address",
                actual: "\(whose) connect to \(address) (\(reason)) and it fails", kind: .pick)
        }
    }
}
