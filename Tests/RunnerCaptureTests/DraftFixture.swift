import Foundation
@testable import RunnerCapture

/// Captures built entry by entry, for the drafter's tests (no file, no JSON).
struct DraftFixture {
    private(set) var entries: [HAREntry] = []

    mutating func add(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: String? = nil, bodyBytes: Data? = nil,
        params: [HARFormParameter] = [], mimeType: String? = nil, status: Int = 200, responseHeaders: [(String, String)] = [],
        response: String? = nil, address: String? = "203.0.113.10", failure: HARFailure? = nil
    ) {
        let requestBody: HARBody? =
            body != nil || bodyBytes != nil || !params.isEmpty
            ? HARBody(bytes: bodyBytes ?? body.map { Data($0.utf8) }, mimeType: mimeType, params: params) : nil
        let request = HARRequest(
            method: method, url: url, httpVersion: .http1_1, httpVersionText: "HTTP/1.1",
            headers: headers.map { HARHeader(name: $0.0, value: $0.1) }, queryString: [], cookies: [], body: requestBody)
        let answer = HARResponse(
            status: status, statusText: nil, headers: responseHeaders.map { HARHeader(name: $0.0, value: $0.1) }, cookies: [],
            content: response.map { HARBody(bytes: Data($0.utf8), mimeType: nil) }, redirectURL: nil)
        entries.append(HAREntry(
            index: entries.count, startedDateTimeText: nil, startedDateTime: nil, request: request,
            response: failure == .noResponse ? nil : answer, serverIPAddress: address.map { HARServerAddress(address: $0) },
            failure: failure))
    }

    func draft(_ options: CaptureDraftOptions = CaptureDraftOptions(bodiesFolder: "plan.yaml.bodies")) -> PlanDraft {
        CaptureDrafter.draft([CaptureDrafter.Input(path: "app.har", capture: HARCapture(version: "1.2", creator: "Test", entries: entries))], options: options)
    }
}

extension PlanDraft {
    func scenario(_ name: String) -> DraftScenario? { scenarios.first { $0.name == name } }
}

extension DraftScenario {
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value.planValue }
}
