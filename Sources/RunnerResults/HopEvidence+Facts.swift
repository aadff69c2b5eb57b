import RunnerVocabulary

extension HopEvidence {
    /// The hop's facts, in the order every report shows them (the console and JUnit's lines,
    /// the HTML report's definition list): the one place a hop fact is declared for them.
    public func describe<Sink: EvidenceSink & ~Copyable>(into sink: inout Sink) {
        sink.fact("url sent", connection.urlSent)
        sink.fact("host", connection.hostHeader)
        sink.fact("sni", connection.sni, or: "none")
        sink.fact("pinned ip", connection.pinnedIP, or: "none (system resolver)")
        // One value: a secret could span the address and the port.
        sink.fact("connected", connectedAddress, or: "not connected")
        // Derived, so one line here is the whole of it: every report that walks this list shows it.
        if let family = connectedFamily {
            sink.beginFact("address family")
            sink.literal(family)
            sink.endFact()
        }
        sink.fact("http version", httpVersion, or: "none")
        sink.beginFact("status")
        if let status { sink.number(status) } else { sink.literal("no response") }
        sink.endFact()
        sink.certificate(certificate)
        if let tls { sink.tls(tls) }
        sink.beginFact("timings")
        var shown = false
        for (name, value) in timings.named {
            guard let value else { continue }
            if shown { sink.literal(", ") }
            sink.literal(name)
            sink.literal(" ")
            sink.milliseconds(value)
            sink.literal(" ms")
            shown = true
        }
        if !shown { sink.literal("none recorded") }
        sink.endFact()
        sink.beginFact("connection")
        sink.literal(newConnection.map { $0 ? "new" : "reused" } ?? "unknown")
        sink.endFact()
        sink.beginFact("body")
        if let bodyLength {
            sink.number(bodyLength)
            sink.literal(" bytes, sha256 ")
            if let bodySHA256 { sink.value(bodySHA256) } else { sink.literal("unknown") }
        } else {
            sink.literal("none received")
        }
        sink.endFact()
    }

    /// `IPv4` or `IPv6`: the family of the address the hop connected to; nil when it connected
    /// nowhere. Which family an edge was reached over matters once an app's users are asked for
    /// both (`ip_version: any`).
    public var connectedFamily: StaticString? {
        guard let ip = connectedIP else { return nil }
        return ip.utf8.contains(UInt8(ascii: ":")) ? "IPv6" : "IPv4"
    }

    /// `IP:port`, `[IPv6]:port`, or the address alone when the port is unknown; nil when the
    /// hop connected nowhere.
    public var connectedAddress: String? {
        guard let ip = connectedIP else { return nil }
        let address = ip.utf8.contains(UInt8(ascii: ":")) ? "[\(ip)]" : ip
        return connectedPort.map { "\(address):\($0)" } ?? address
    }
}
