import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Builds the transfer for a wire plan: the plan's request, carried out the strategy's way.
enum TransferSpecs {
    static func request(_ request: HopRequest, scenario: Scenario, wire: WirePlan, timeout: Duration, digestsBody: Bool) -> TransferSpec {
        var headers = request.headers
        if wire.connection.setsHostHeader, !headers.contains(where: { HeaderName.equal($0.name, "Host") }) {
            headers.insert(Header(name: "Host", value: wire.connection.hostHeader), at: 0)
        }
        return TransferSpec(
            url: wire.connection.urlSent, method: request.method, headers: headers, body: request.body,
            connectTo: wire.connection.connectTo, tls: wire.connection.tls,
            httpVersion: scenario.settings.http, timeout: timeout,
            connectTimeout: min(scenario.settings.connectTimeout, timeout), poolKey: wire.poolKey,
            bodyCaptureLimit: scenario.settings.maxBody, digestsBody: digestsBody)
    }

    /// A handshake-only transfer on a fresh connection (its own pool), verification on.
    static func sniProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        TransferSpec(
            url: wire.connection.urlSent, connectTo: wire.connection.connectTo, tls: wire.connection.tls,
            timeout: scenario.settings.connectTimeout, connectTimeout: scenario.settings.connectTimeout,
            poolKey: wire.poolKey.tagged("probe"), connectOnly: true)
    }

    /// A handshake-only transfer as the hop's, without the scenario's `tls:` limits (its own
    /// pool): what the server offers a client that offers everything.
    static func limitsProbe(scenario: Scenario, wire: WirePlan) -> TransferSpec {
        var tls = wire.connection.tls
        tls.client = ClientTLS()
        return TransferSpec(
            url: wire.connection.urlSent, connectTo: wire.connection.connectTo, tls: tls, timeout: scenario.settings.connectTimeout,
            connectTimeout: scenario.settings.connectTimeout, poolKey: wire.poolKey.tagged("limits-probe"), connectOnly: true)
    }
}
