extension MonitorServer {
    /// Why the server could not start: the address and the system's words.
    public struct ListenError: Error, CustomStringConvertible {
        public var address: ListenAddress
        public var reason: String

        public var description: String { "cannot listen on \(address): \(reason)" }
    }
}
