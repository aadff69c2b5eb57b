import Foundation
import RunnerPlan
import RunnerResults
import Testing

@testable import RunnerEngine

@Suite("Verdict: body json", .timeLimit(.minutes(3)))
struct VerdictJSONTests {
    static let user = #"{"user":{"id":42,"name":"probe","admin":false,"manager":null},"items":[{"name":"a"},{"name":"b"}],"tags":[1,2],"ratio":0.5,"one":1,"zero":0,"yes":true}"#

    static func json(_ path: JSONPath, _ value: JSONValue, body: String = user) -> (Expectations, ObservedResponse) {
        (expecting { $0.body = [.json([JSONExpectation(path: path, value: value)])] }, response(body: body))
    }

    static func row(
        _ name: String, _ path: JSONPath, _ value: JSONValue, body: String = user, _ problems: [Problem] = []
    ) -> VerdictCase {
        let (expect, observed) = json(path, value, body: body)
        return VerdictCase(name, expect, observed, problems)
    }

    static let userID = jsonPath("$.user.id", .member("user"), .member("id"))

    static let cases: [VerdictCase] = [
        row("number passes", userID, .number(42)),
        row("number 42.0 in the body equals 42", userID, .number(42), body: #"{"user":{"id":42.0}}"#),
        row(
            "number fails", userID, .number(43),
            [problem("body json $.user.id", "43", "42")]),
        row("fractional number passes", jsonPath("$.ratio", .member("ratio")), .number(0.5)),
        row(
            "fractional number fails", jsonPath("$.ratio", .member("ratio")), .number(0.25),
            [problem("body json $.ratio", "0.25", "0.5")]),
        row("string passes", jsonPath("$.user.name", .member("user"), .member("name")), .string("probe")),
        row(
            "string fails, rendered as JSON", jsonPath("$.user.name", .member("user"), .member("name")),
            .string("say \"hi\""),
            [problem("body json $.user.name", #""say \"hi\"""#, #""probe""#)]),
        row(
            "number is not the same as a numeric string", userID, .string("42"),
            [problem("body json $.user.id", #""42""#, "42")]),
        row("bool false passes", jsonPath("$.user.admin", .member("user"), .member("admin")), .bool(false)),
        row("bool true passes", jsonPath("$.yes", .member("yes")), .bool(true)),
        row(
            "bool fails", jsonPath("$.user.admin", .member("user"), .member("admin")), .bool(true),
            [problem("body json $.user.admin", "true", "false")]),
        // The NSNumber traps: on Linux `NSNumber(1) as? Bool` succeeds, so 1/0 must not pass as true/false…
        row(
            "1 is not true", jsonPath("$.one", .member("one")), .bool(true),
            [problem("body json $.one", "true", "1")]),
        row(
            "0 is not false", jsonPath("$.zero", .member("zero")), .bool(false),
            [problem("body json $.zero", "false", "0")]),
        // …and true/false must not pass as 1/0.
        row(
            "true is not 1", jsonPath("$.yes", .member("yes")), .number(1),
            [problem("body json $.yes", "1", "true")]),
        row(
            "false is not 0", jsonPath("$.user.admin", .member("user"), .member("admin")), .number(0),
            [problem("body json $.user.admin", "0", "false")]),
        row("null passes", jsonPath("$.user.manager", .member("user"), .member("manager")), .null),
        row(
            "null is not a missing member", jsonPath("$.user.boss", .member("user"), .member("boss")), .null,
            [problem("body json $.user.boss", "null", "no such path")]),
        row(
            "null fails against a value", userID, .null,
            [problem("body json $.user.id", "null", "42")]),
        row("array passes", jsonPath("$.tags", .member("tags")), .array([.number(1), .number(2)])),
        row(
            "array fails", jsonPath("$.tags", .member("tags")), .array([.number(1), .number(2), .number(3)]),
            [problem("body json $.tags", "[1,2,3]", "[1,2]")]),
        row(
            "nested member in an array element passes",
            jsonPath("$.items[1].name", .member("items"), .index(1), .member("name")), .string("b")),
        row(
            "index out of range", jsonPath("$.items[5].name", .member("items"), .index(5), .member("name")),
            .string("b"),
            [problem("body json $.items[5].name", #""b""#, "no such path")]),
        row(
            "member of an array is no such path", jsonPath("$.items.name", .member("items"), .member("name")),
            .string("a"),
            [problem("body json $.items.name", #""a""#, "no such path")]),
        row(
            "index into an object is no such path", jsonPath("$.user[0]", .member("user"), .index(0)),
            .number(42),
            [problem("body json $.user[0]", "42", "no such path")]),
        row(
            "object found where a scalar was expected, keys sorted",
            jsonPath("$.items[0]", .member("items"), .index(0)), .string("a"),
            [problem("body json $.items[0]", #""a""#, #"{"name":"a"}"#)]),
        row(
            "object value passes", jsonPath("$.items[0]", .member("items"), .index(0)),
            .object(["name": .string("a")])),
        row("root of a scalar document", jsonPath("$"), .number(42), body: "42"),
        row(
            "not JSON", userID, .number(42), body: "<html>nope</html>",
            [problem("body json", "a JSON document", "not JSON: '<html>nope</html>' (17 bytes)")]),
    ]

    @Test(arguments: cases)
    func paths(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    @Test("truncated JSON is reported as not JSON, noting the prefix")
    func truncatedJSON() {
        let expect = expecting { $0.body = [.json([JSONExpectation(path: Self.userID, value: .number(42))])] }
        let observed = response(body: #"{"user":{"id""#, bodyLength: 4096)

        #expect(
            ExpectationChecker.problems(for: expect, observed: observed, now: verdictNow) == [
                problem(
                    "body json", "a JSON document",
                    #"not JSON: '{"user":{"id"' (4096 bytes; only the first 13 bytes were checked)"#)
            ])
    }

    @Test("each failing path is its own problem, in plan order")
    func severalPaths() {
        let expect = expecting {
            $0.body = [
                .json([
                    JSONExpectation(path: jsonPath("$.yes", .member("yes")), value: .bool(false)),
                    JSONExpectation(path: Self.userID, value: .number(42)),
                    JSONExpectation(path: jsonPath("$.missing", .member("missing")), value: .number(1)),
                ])
            ]
        }
        #expect(
            ExpectationChecker.problems(for: expect, observed: response(body: Self.user), now: verdictNow) == [
                problem("body json $.yes", "false", "true"),
                problem("body json $.missing", "1", "no such path"),
            ])
    }

    @Test("a large value found is shown as an excerpt")
    func largeValueExcerpt() {
        let long = String(repeating: "x", count: 300)
        let (expect, observed) = Self.json(jsonPath("$.s", .member("s")), .string("short"), body: #"{"s":"\#(long)"}"#)

        let problems = ExpectationChecker.problems(for: expect, observed: observed, now: verdictNow)

        #expect(problems == [problem("body json $.s", #""short""#, "\"" + String(repeating: "x", count: 119) + "…")])
    }

    // MARK: The Foundation bridge itself

    @Test("booleans and numbers stay apart when converting JSONSerialization output")
    func booleansVersusNumbers() throws {
        let document = try #require(JSONDocument(parsing: Data("[true, 1, false, 0, 1.0, -0, 12345678901234567890]".utf8)))

        #expect(
            document.root
                == .array([
                    .bool(true), .number(1), .bool(false), .number(0), .number(1), .number(0),
                    .number(12_345_678_901_234_567_168),  // the nearest Double
                ]))
    }

    @Test("only the boolean NSNumber class counts as a boolean")
    func booleanClassCheck() {
        #expect(JSONDocument.isBoolean(NSNumber(value: true)))
        #expect(JSONDocument.isBoolean(NSNumber(value: false)))
        #expect(!JSONDocument.isBoolean(NSNumber(value: 1)))
        #expect(!JSONDocument.isBoolean(NSNumber(value: 0)))
        // Int8 shares the `c` objCType with booleans on Darwin; it must still be a number.
        #expect(!JSONDocument.isBoolean(NSNumber(value: Int8(1))))
        #expect(!JSONDocument.isBoolean(NSNumber(value: 1.0)))
        #expect(JSONDocument.value(of: true) == .bool(true))
        #expect(JSONDocument.value(of: 1) == .number(1))
        #expect(JSONDocument.value(of: NSNull()) == .null)
    }

    @Test("non-JSON bodies do not parse")
    func notJSON() {
        #expect(JSONDocument(parsing: Data("<html>".utf8)) == nil)
        #expect(JSONDocument(parsing: Data()) == nil)
        #expect(JSONDocument(parsing: Data([0xFF, 0xFE])) == nil)
    }
}

/// `json_exists`: each path is there, whatever it holds; what `runner init --har` writes for
/// the top-level keys a recorded answer had.
@Suite("Verdict: body json_exists", .timeLimit(.minutes(3)))
struct VerdictJSONExistsTests {
    static func row(_ name: String, _ paths: [JSONPath], body: String = VerdictJSONTests.user, _ problems: [Problem] = []) -> VerdictCase {
        VerdictCase(name, expecting { $0.body = [.jsonExists(paths)] }, response(body: body), problems)
    }

    static let user = jsonPath("$.user", .member("user"))
    static let manager = jsonPath("$.user.manager", .member("user"), .member("manager"))
    static let missing = jsonPath("$.token", .member("token"))

    static let cases: [VerdictCase] = [
        row(
            "every path there passes, whatever its value",
            [user, jsonPath("$.user.id", .member("user"), .member("id")), jsonPath("$.items[1]", .member("items"), .index(1)),
             jsonPath("$.yes", .member("yes"))]),
        row("a member whose value is null exists", [manager]),
        row("a quoted name with a space", [jsonPath("$['full name']", .member("full name"))], body: #"{"full name":""}"#),
        row("the root of any JSON document exists, null included", [jsonPath("$")], body: "null"),
        row("a missing member", [user, missing], [problem("body json $.token", "exists", "no such path")]),
        row(
            "each missing path is its own problem, in plan order",
            [jsonPath("$.b", .member("b")), user, jsonPath("$.a", .member("a"))],
            [problem("body json $.b", "exists", "no such path"), problem("body json $.a", "exists", "no such path")]),
        row(
            "an index out of range", [jsonPath("$.items[5]", .member("items"), .index(5))],
            [problem("body json $.items[5]", "exists", "no such path")]),
        row(
            "a member of an array is no such path", [jsonPath("$.tags.name", .member("tags"), .member("name"))],
            [problem("body json $.tags.name", "exists", "no such path")]),
        row(
            "a member below a null is no such path", [jsonPath("$.user.manager.id", .member("user"), .member("manager"), .member("id"))],
            [problem("body json $.user.manager.id", "exists", "no such path")]),
        row(
            "not JSON is one problem, as for json", [user, missing], body: "<html>nope</html>",
            [problem("body json", "a JSON document", "not JSON: '<html>nope</html>' (17 bytes)")]),
    ]

    @Test(arguments: cases)
    func paths(_ row: VerdictCase) {
        #expect(ExpectationChecker.problems(for: row.expect, observed: row.observed, now: verdictNow) == row.problems)
    }

    @Test("truncated JSON is reported as not JSON, noting the prefix")
    func truncatedJSON() {
        let expect = expecting { $0.body = [.jsonExists([Self.user])] }
        let observed = response(body: #"{"user":{"id""#, bodyLength: 4096)

        #expect(
            ExpectationChecker.problems(for: expect, observed: observed, now: verdictNow) == [
                problem(
                    "body json", "a JSON document",
                    #"not JSON: '{"user":{"id"' (4096 bytes; only the first 13 bytes were checked)"#)
            ])
    }

    @Test("beside json, each matcher reports its own paths in plan order")
    func besideJSON() {
        let expect = expecting {
            $0.body = [
                .json([JSONExpectation(path: jsonPath("$.yes", .member("yes")), value: .bool(false))]),
                .jsonExists([Self.missing, Self.manager]),
            ]
        }
        #expect(
            ExpectationChecker.problems(for: expect, observed: response(body: VerdictJSONTests.user), now: verdictNow) == [
                problem("body json $.yes", "false", "true"),
                problem("body json $.token", "exists", "no such path"),
            ])
    }
}
