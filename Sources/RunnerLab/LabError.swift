/// Why the lab could not start or stop, with the address, port or path involved.
public enum LabError: Error, Equatable, CustomStringConvertible {
    /// A listener could not be bound (`service` is "HTTP" or "HTTPS").
    case cannotListen(service: String, address: String, port: Int, reason: String)
    /// No single free port number could be bound on every lab address.
    case noCommonFreePort(service: String, attempts: Int, lastReason: String)
    /// The state directory or a file in it could not be written.
    case stateDirectory(path: String, reason: String)
    /// A certificate or key could not be generated or loaded into TLS.
    case certificate(name: String, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let service, let address, let port, let reason):
            return "lab: cannot listen for \(service) on \(Self.endpoint(address, port)): \(reason)"
        case .noCommonFreePort(let service, let attempts, let lastReason):
            return "lab: no free \(service) port shared by all lab addresses after \(attempts) attempts "
                + "(last: \(lastReason))"
        case .stateDirectory(let path, let reason):
            return "lab: cannot write state in \(path): \(reason)"
        case .certificate(let name, let reason):
            return "lab: cannot make the certificate for \(name): \(reason)"
        }
    }

    /// `host:port`, bracketing IPv6 literals so the text can be pasted into a URL.
    static func endpoint(_ address: String, _ port: Int) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}
