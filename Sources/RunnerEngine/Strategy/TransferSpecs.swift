import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport

/// Builds the transfer for a wire plan: the plan's request, carried out the strategy's way.
enum TransferSpecs {
    static func request(_ request: HopRequest, scenario: Scenario, wire: WirePlan, timeout: Duration) -> TransferSpec {
        var headers = request.headers.map { (name: $0.name, value: $0.value) }
        if let host = wire.explicitHostHeader,
            !headers.contains(where: { HeaderName.equal($0.name, "Host") })
        {
            headers.insert((name: "Host", value: host), at: 0)
        }
        let body: TransferSpec.Body? = request.body.map {
            switch $0 {
            case .bytes(let data): .bytes(data)
            case .file(let path): .file(path: path)
            }
        }
        return TransferSpec(
            url: wire.urlSent, method: request.method, headers: headers, body: body,
            connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            httpVersion: httpVersion(scenario.settings.http), timeout: timeout,
            connectTimeout: min(scenario.settings.connectTimeout, timeout), poolKey: wire.poolKey,
            bodyCaptureLimit: scenario.settings.maxBody)
    }

    /// A handshake-only transfer on a fresh connection (its own pool), verification on.
    static func sniProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        TransferSpec(
            url: wire.urlSent, connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            timeout: scenario.settings.connectTimeout, connectTimeout: scenario.settings.connectTimeout,
            poolKey: wire.poolKey.tagged("probe"), connectOnly: true)
    }

    private static func tls(scenario: Scenario, wire: WirePlan) -> TransferSpec.TLSSettings {
        TransferSpec.TLSSettings(
            caFile: scenario.settings.caFile, insecure: scenario.settings.insecure, verifyName: wire.verifyName)
    }

    private static func httpVersion(_ preference: HTTPVersionPreference) -> TransferSpec.HTTPVersion {
        switch preference {
        case .http1_1: .http1_1
        case .http2: .http2
        case .auto: .auto
        }
    }
}
