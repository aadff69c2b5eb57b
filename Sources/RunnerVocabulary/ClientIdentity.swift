/// Who a user population is, as rules select it and reports name it: its name and labels
/// (`gd-mobile`, `isp: china-mobile`). The plan's `ClientPopulation` adds how to ask as it;
/// a result's evidence lists the identities whose answer held its address.
public struct ClientIdentity: Sendable, Hashable {
    /// One label: `isp: china-mobile`.
    public struct Label: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    /// Sorted by name; every client of a plan has the same label names.
    public var labels: [Label]

    public init(name: String, labels: [Label]) {
        self.name = name
        self.labels = labels
    }

    /// `gd-mobile (isp=china-mobile, region=guangdong)`, or the name alone without labels: how
    /// a message and the evidence name a client.
    public var described: String {
        guard !labels.isEmpty else { return name }
        var text = name + " ("
        for (index, label) in labels.enumerated() {
            if index > 0 { text += ", " }
            text += label.name + "=" + label.value
        }
        return text + ")"
    }
}
