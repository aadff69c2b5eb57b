import LabTestSupport
import RunnerLab
import RunnerPlan
import Testing

/// The lab's part of the recipe for a new HTTPDNS format (docs/architecture.md, "Where to
/// add…"): every format a plan accepts is a service of the lab, `HTTPDNSLabTests` runs it, and a
/// lookup through it is answered by the lab's endpoint for that format. `HTTPDNSFormatRecipeTests`
/// holds the rest.
@Suite("Every HTTPDNS format is served by the lab", .timeLimit(.minutes(3)))
struct HTTPDNSFormatLabRecipeTests {
    @Test("the lab answers it, and HTTPDNSLabTests runs it", arguments: HTTPDNSSpec.Format.Name.allCases)
    func labServesIt(name: HTTPDNSSpec.Format.Name) async throws {
        let format = try #require(LabDNS.Format(rawValue: name.rawValue), "the lab has no '\(name.rawValue)' service (LabDNS.Format)")
        let services = HTTPDNSLabTests.services.filter { $0.format == name.rawValue }
        #expect(!services.isEmpty, "HTTPDNSLabTests.services has no '\(name.rawValue)' service")
        // A lab of its own, so that its count of lookups in this format is this test's.
        let labRun = try await LabRun.dedicated()
        for service in services {
            let before = labRun.lab.httpdnsLookups(format: format, host: "api.lab.test")
            let run = try await labRun.run(HTTPDNSLabTests.plan(service, scenarios: """
                  - name: api
                    strategy: sni-resolve
                    request: {url: "https://api.lab.test:{{https}}/echo"}
                """))
            #expect(run.all.count == 1 && run.all.allSatisfy(\.passed), "\(service.testDescription): \(run.all.map(\.summary))")
            #expect(labRun.lab.httpdnsLookups(format: format, host: "api.lab.test") > before, "\(service.testDescription)")
        }
        try await labRun.lab.shutdown()
    }
}
