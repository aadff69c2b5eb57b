import Foundation
import PlanFixtures
import RunnerPlan
import Testing

@Suite("Scale")
struct ScaleTests {
    /// A plan with `count` scenarios of the usual shape.
    static func generatedPlan(scenarios count: Int) -> String {
        var text = """
            version: 1
            defaults:
              timeout: 5s
              headers: {User-Agent: runner/1}
            vars: {region: cn}
            domains:
              builtin:
                static: {api.example.com: [203.0.113.10, 203.0.113.11]}
            scenarios:

            """
        text.reserveCapacity(count * 400)
        for index in 0..<count {
            text += """
                  - name: scenario \(index) in ${region}
                    tags: [generated, batch\(index % 10)]
                    domains: builtin
                    strategy: [sni-resolve, trust-override]
                    request:
                      method: POST
                      url: https://api.example.com/items/\(index)?q=1
                      headers: {Content-Type: application/json, X-Index: "\(index)"}
                      body: '{"index": \(index)}'
                    expect:
                      status: [200, 201]
                      headers: {Content-Type: {contains: json}, X-Id: {matches: "^[0-9]+$"}}
                      body: {json: {"$.index": \(index)}}
                      time: {total: 800ms}

                """
        }
        return text
    }

    @Test("10,000 scenarios load (time printed for information)")
    func tenThousandScenarios() throws {
        let workspace = try PlanWorkspace()
        let text = Self.generatedPlan(scenarios: 10_000)
        let path = try workspace.write("large.yaml", text)
        let started = ContinuousClock.now
        let plan = try PlanLoader.load(path: path, environment: [:])
        let elapsed = ContinuousClock.now - started
        print("parsed 10,000 scenarios (\(text.utf8.count / 1024) KiB) in \(elapsed)")
        #expect(plan.scenarios.count == 10_000)
        #expect(plan.scenarios[9_999].name == "scenario 9999 in cn")
        #expect(plan.scenarios[9_999].request.headers.count == 3)
    }
}
