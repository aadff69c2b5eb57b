extension CycleSnapshot {
    /// One completed cycle's documents.
    public struct Documents: Sendable {
        /// The Prometheus text exposition, rendered on demand.
        public var metrics: @Sendable () -> [UInt8]
        public var reportJSON: [UInt8]
        public var junitXML: [UInt8]
        public var reportHTML: [UInt8]
    }
}
