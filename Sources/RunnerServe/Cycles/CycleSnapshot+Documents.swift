extension CycleSnapshot {
    /// One completed cycle's documents.
    public struct Documents: Sendable {
        /// The Prometheus text exposition, rendered on demand.
        public var metrics: @Sendable () -> [UInt8]
        /// The JSON report, as written.
        public var reportJSON: [UInt8]
        /// The JUnit XML report, as written.
        public var junitXML: [UInt8]
        /// The HTML report, as written.
        public var reportHTML: [UInt8]
        /// Why the last cycle's answers are not all in the state file; nil when they are (or
        /// without one). `/-/ready` answers 503 meanwhile.
        public var stateProblem: String? = nil
    }
}
