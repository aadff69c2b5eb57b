/// An HTTP Archive (HAR 1.2 or 1.3) as the capture tools write it, its entries in capture order.
public struct HARCapture: Sendable, Equatable {
    /// `log.version` as written (`1.2`, `1.3`), nil when absent.
    public var version: String?
    /// `log.creator.name`, or `creator` itself when a tool wrote it as a string (Charles).
    public var creator: String?
    public var entries: [HAREntry]

    public init(version: String?, creator: String?, entries: [HAREntry]) {
        self.version = version
        self.creator = creator
        self.entries = entries
    }
}
