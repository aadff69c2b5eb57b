import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport

/// Takes a passing result's captures (`capture:`) from its final response; a capture that finds
/// nothing fails the result, naming it.
enum CaptureEvaluation {
    struct Outcome {
        var values: [String: CapturedValue] = [:]
        /// In the plan's order; secret values left out.
        var records: [CaptureRecord] = []
        var problems: [Problem] = []
    }

    /// One capture's text, or why there is none.
    enum Found {
        case text(String)
        case missing(Problem)
    }

    /// `redactor` masks the run's secrets in a quoted value before it is cut.
    static func evaluate(_ captures: [Capture], response: TransferResponse, redactor: Redactor? = nil) -> Outcome {
        var outcome = Outcome()
        guard !captures.isEmpty else { return outcome }
        var bodyText: String?
        for capture in captures {
            let found: Found
            switch capture.source {
            case .json(let path):
                found = jsonValue(at: path, in: response.body, capture: capture, redactor: redactor)
            case .header(let name):
                found = response.firstValue(of: name).map { .text($0) }
                    ?? .missing(problem(capture, expected: "header \(name)", actual: "no such header"))
            case .body(let pattern):
                if bodyText == nil { bodyText = String(decoding: response.body, as: UTF8.self) }
                found = firstGroup(of: pattern, in: bodyText ?? "", capture: capture)
            }
            switch found {
            case .text(let text):
                outcome.values[capture.name] = CapturedValue(text: text, secret: capture.secret)
                outcome.records.append(CaptureRecord(name: capture.name, value: capture.secret ? nil : text))
            case .missing(let problem):
                outcome.problems.append(problem)
            }
        }
        return outcome
    }

    private static func jsonValue(at path: JSONPath, in body: Data, capture: Capture, redactor: Redactor?) -> Found {
        switch JSONDocument.value(at: path, in: body) {
        case .notJSON:
            return .missing(problem(capture, expected: "a JSON body with \(path.text)", actual: "the body is not JSON"))
        case .missing:
            return .missing(problem(capture, expected: "a value at \(path.text)", actual: "no such path"))
        case .found(.string(let text)):
            return .text(text)
        case .found(.bool(let value)):
            return .text(value ? "true" : "false")
        case .found(.number(let number)):
            return .text(VerdictText.json(.number(number)))
        case .found(let other):
            // null, an array or an object: a capture takes a scalar.
            return .missing(problem(
                capture, expected: "a string, number or boolean at \(path.text)", actual: VerdictText.jsonExcerpt(other, masking: redactor)))
        }
    }

    private static func firstGroup(of pattern: String, in text: String, capture: Capture) -> Found {
        // The decoder compiled the pattern and counted one group.
        guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: text), match.output.count > 1 else {
            return .missing(problem(capture, expected: "a match of /\(pattern)/", actual: "no match in the body"))
        }
        guard let group = match.output[1].substring else {
            return .missing(problem(capture, expected: "a match of /\(pattern)/ with its group", actual: "the group matched nothing"))
        }
        return .text(String(group))
    }

    private static func problem(_ capture: Capture, expected: String, actual: String) -> Problem {
        Problem(subject: "capture \(capture.name)", expected: expected, actual: actual)
    }
}
