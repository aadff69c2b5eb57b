/// Why a transfer (or the lookup before it) could not complete: what libcurl said, then, once
/// the engine has told it in domain terms, with the endpoint and a diagnosis.
public struct TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case resolve, connect, tls, timeout, http, io
    }

    public var kind: Kind
    /// What went wrong, e.g. `TLS handshake with 127.0.0.3:8443 failed: certificate name mismatch`.
    public var message: String
    /// What it means and what to do, e.g. that the endpoint needs `sni-resolve`.
    public var diagnosis: String?
    /// libcurl's CURLcode when libcurl reported the failure; nil when the runner found it.
    public var curlCode: Int?

    public init(kind: Kind, message: String, diagnosis: String? = nil, curlCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.diagnosis = diagnosis
        self.curlCode = curlCode
    }

    public var description: String {
        guard let diagnosis else { return message }
        return "\(message) — \(diagnosis)"
    }
}
