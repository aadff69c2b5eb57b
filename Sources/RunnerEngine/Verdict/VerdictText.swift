import Foundation
import RunnerPlan
import RunnerResults

/// How the Verdict stage writes values into `Problem` texts: milliseconds, quoted excerpts, JSON.
enum VerdictText {
    /// Longest excerpt (in characters) of a body, header value or JSON value put in a problem.
    static let excerptLimit = 120

    // MARK: Durations

    /// `800 ms`, `1234 ms`, `3.4 ms` (`Duration.spokenMilliseconds`).
    static func milliseconds(_ duration: Duration, fractionDigits: Int? = nil) -> String {
        duration.spokenMilliseconds(fractionDigits: fractionDigits)
    }

    /// A plan limit, exact to the microsecond: `800 ms`, `1500 ms`, `12.5 ms`.
    static func limit(_ duration: Duration) -> String {
        milliseconds(duration, fractionDigits: 3)
    }

    // MARK: Quoted text

    /// `a`, `a and b`, `a, b and c` (with `or`, `nor`: whatever joins the last two).
    static func list(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// `'text'`, secrets masked, control characters escaped, cut at `excerptLimit` characters
    /// with `…`.
    static func quoted(_ text: String, masking redactor: Redactor?) -> String {
        "'\(excerpt(text, masking: redactor))'"
    }

    /// `'a', 'b'`: each value quoted.
    static func quotedList(_ values: [String], masking redactor: Redactor?) -> String {
        values.map { quoted($0, masking: redactor) }.joined(separator: ", ")
    }

    /// The first `excerptLimit` characters of `text`, control characters escaped. Secrets are
    /// masked in the whole text first: a cut made before masking could end inside a secret and
    /// leave most of it to read.
    static func excerpt(_ text: String, limit: Int = excerptLimit, masking redactor: Redactor?) -> String {
        let text = redactor?.redact(text) ?? text
        let cut = text.prefix(limit)
        var result = ""
        for scalar in cut.unicodeScalars {
            result += escapedControl(scalar)
        }
        if cut.endIndex < text.endIndex { result += "…" }
        return result
    }

    private static func escapedControl(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            // C0, DEL and C1 controls would garble a report line; show their code instead.
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) {
                return "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            }
            return String(scalar)
        }
    }

    /// `1 byte`, `16 bytes`.
    static func byteCount(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// What the plan asked of a string: `equals 'x'`, `contains 'json'`, `matches '^a'`, `absent`.
    static func describe(_ matcher: StringMatcher, masking redactor: Redactor?) -> String {
        switch matcher {
        case .equals(let value): "equals \(quoted(value, masking: redactor))"
        case .contains(let value): "contains \(quoted(value, masking: redactor))"
        case .matches(let pattern): "matches \(quoted(pattern, masking: redactor))"
        case .absent: "absent"
        }
    }

    // MARK: JSON

    /// Compact JSON text: `42`, `4.5`, `"probe"`, `true`, `null`, `[1,2]`, `{"a":1}` (keys sorted).
    static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number fails to encode, and JSON text (a response) cannot hold one;
        // a plan's `.inf` is shown as YAML wrote it.
        guard let data = try? encoder.encode(value) else {
            if case .number(let number) = value { return "\(number)" }
            return "null"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// JSON text cut at `excerptLimit` characters, for values found in a response (secrets
    /// masked before the cut).
    static func jsonExcerpt(_ value: JSONValue, masking redactor: Redactor?) -> String {
        let text = redactor?.redact(json(value)) ?? json(value)
        guard text.count > excerptLimit else { return text }
        return String(text.prefix(excerptLimit)) + "…"
    }
}
