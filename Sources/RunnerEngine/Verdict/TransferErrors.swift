import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Transport failures and invariant breaches, told in domain terms.
enum TransferErrors {
    static func describe(_ failure: TransferError, wire: WirePlan, timeout: Duration) -> TransferError {
        let url = wire.originalURL
        let endpoint = wire.pinnedIP.map { "\($0.urlHost):\(url.port)" } ?? url.authority
        let message: String
        switch failure.kind {
        case .resolve: message = "cannot resolve '\(url.host)': \(failure.message)"
        case .connect: message = "cannot connect to \(endpoint): \(failure.message)"
        case .tls: message = "TLS handshake with \(endpoint) (\(sniText(wire))) failed: \(failure.message)"
        case .timeout: message = "timed out (timeout \(timeout.planNotation)) with \(endpoint): \(failure.message)"
        case .http: message = "bad HTTP response from \(endpoint): \(failure.message)"
        case .io: message = "transfer with \(endpoint) failed: \(failure.message)"
        }
        return TransferError(kind: failure.kind, message: message, curlCode: failure.curlCode)
    }

    /// The invariant "every transfer connects to exactly the IP the strategy chose", checked.
    static func pinMismatch(wire: WirePlan, evidence: TransferEvidence) -> TransferError? {
        guard let pinned = wire.pinnedIP else { return nil }
        // libcurl reports the canonical text almost always; parse only when the texts differ.
        if evidence.connectedIP == pinned.text { return nil }
        let connected = evidence.connectedIP.flatMap(IPAddress.init)
        guard connected != pinned else { return nil }
        return TransferError(
            kind: .connect,
            message: "connected to \(evidence.connectedIP ?? "an unknown address"), but the strategy pinned \(pinned.text)")
    }

    private static func sniText(_ wire: WirePlan) -> String {
        wire.connection.sni.map { "SNI '\($0)'" } ?? "no SNI"
    }
}
