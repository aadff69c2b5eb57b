import Foundation
import RunnerResults
import Testing

@testable import RunnerReport

/// The `--curl` script's comment before each result's lines: the outcome and the result's
/// name, masked and made one line as a whole, whether it is written from its pieces (nothing to
/// mask) or joined.
@Suite struct CurlReportTests {
    static func outcomeWord(_ outcome: Outcome) -> String {
        switch outcome {
        case .passed: "PASS"
        case .failed(let problems): "FAIL" + (problems.first.map { " (\($0.subject))" } ?? "")
        case .errored(let error): "ERROR (\(error.kind.rawValue))"
        case .skipped: "SKIP"
        }
    }

    @Test(arguments: [false, true])
    func eachResultIsHeadedByItsOutcomeAndName(masking: Bool) throws {
        let redactor = masking ? Fixture.redactor : Redactor(secrets: [])
        var run = Fixture.run()
        // A flow step: its name says the results it ran after.
        run.suites[1].results[1].after = [ResultStep(scenario: "log in\n# injected", strategy: .headerOnly, ip: "203.0.113.9")]
        run.suites[0].results[0].scenario = "login with \(Fixture.secret)"
        let script = try RenderedReport.curl(run, redactor: redactor)
        for result in run.suites.flatMap(\.results) {
            let comment = "# " + PlainText.singleLine(redactor.redact(Self.outcomeWord(result.outcome) + " " + result.displayName)) + "\n"
            #expect(script.contains("\n" + comment), "\(comment) in \(script)")
        }
        #expect(script.contains(Fixture.secret) == !masking)
    }
}
