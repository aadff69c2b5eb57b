import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Builds the transfer for a wire plan: the plan's request, carried out the strategy's way.
enum TransferSpecs {
    static func request(_ request: HopRequest, scenario: Scenario, wire: WirePlan, timeout: Duration) -> TransferSpec {
        var headers = request.headers
        if let host = wire.explicitHostHeader,
            !headers.contains(where: { HeaderName.equal($0.name, "Host") })
        {
            headers.insert(Header(name: "Host", value: host), at: 0)
        }
        return TransferSpec(
            url: wire.urlSent, method: request.method, headers: headers, body: request.body,
            connectTo: wire.connectTo, tls: tls(scenario: scenario, wire: wire),
            httpVersion: scenario.settings.http, timeout: timeout,
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

    /// A handshake-only transfer as the hop's, without the scenario's `tls:` limits (its own
    /// pool): what the server offers a client that offers everything.
    static func limitsProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        var tls = tls(scenario: scenario, wire: wire)
        tls.client = ClientTLS()
        return TransferSpec(
            url: wire.urlSent, connectTo: wire.connectTo, tls: tls, timeout: scenario.settings.connectTimeout,
            connectTimeout: scenario.settings.connectTimeout, poolKey: wire.poolKey.tagged("limits-probe"), connectOnly: true)
    }

    private static func tls(scenario: Scenario, wire: WirePlan) -> TransferSpec.TLSSettings {
        TransferSpec.TLSSettings(
            caFile: scenario.settings.caFile, insecure: scenario.settings.insecure, verifyName: wire.verifyName,
            client: scenario.settings.tls)
    }
}
