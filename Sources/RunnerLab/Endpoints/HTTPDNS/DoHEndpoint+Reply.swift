extension DoHEndpoint {
    /// What the table says to `query`, and the HTTP `Age` to send with it, if any.
    static func reply(to query: DNSQuery, resolution: HTTPDNSResolution) -> (DNSReply, age: Int?) {
        guard query.recordClass == DNSQuery.classIN else { return (DNSReply(responseCode: .notImplemented), nil) }
        switch LabDNS.dohOnlyNames[LabDNS.canonicalName(query.name)] {
        case .serverFailure?: return (DNSReply(responseCode: .serverFailure), nil)
        case .refused?: return (DNSReply(responseCode: .refused), nil)
        case .truncated?: return (DNSReply(truncated: true), nil)
        case .aged(let record, let age)?: return (DNSReply(answers: answers(to: query, from: record)), age)
        case nil: break
        }
        switch resolution {
        case .noSuchName: return (DNSReply(responseCode: .nameError), nil)
        case .empty: return (DNSReply(), nil)
        case .records(let record): return (DNSReply(answers: answers(to: query, from: record)), nil)
        }
    }

    /// The answer section for `record`: an alias's CNAME first, then the addresses of the type
    /// asked, owned by the name that has them.
    static func answers(to query: DNSQuery, from record: LabDNS.Record) -> [DNSReply.Record] {
        var answers: [DNSReply.Record] = []
        var owner = query.name
        var addresses = record
        if let alias = record.canonicalName {
            let target = LabDNS.canonicalName(alias)
            answers.append(DNSReply.Record(owner: owner, ttl: record.ttl, data: .cname(target + ".")))
            owner = target + "."
            addresses = LabDNS.records[target] ?? LabDNS.Record()
        }
        switch query.type {
        case DNSQuery.typeA:
            answers += addresses.ipv4.map { DNSReply.Record(owner: owner, ttl: addresses.ttl, data: .a($0)) }
        case DNSQuery.typeAAAA:
            answers += addresses.ipv6.map { DNSReply.Record(owner: owner, ttl: addresses.ttl, data: .aaaa($0)) }
        default:
            break
        }
        return answers
    }
}
