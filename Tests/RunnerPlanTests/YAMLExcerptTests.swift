import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan

/// Parts of an existing plan copied into a written one: read, written, and read back the same.
@Suite("YAML excerpt")
struct YAMLExcerptTests {
    static let fixture = """
        version: 1
        x-auth: &auth {scheme: alibaba-sign, secret: "${secret:ALI_SECRET}", valid_for: 10m}
        x-base: &base
          timeout: 2s
          fallback: shipped
        domains:
          shipped:
            static:
              api.example.com: [203.0.113.10, "2001:db8::10"]
          ali:                      # the Android app's map
            httpdns:
              <<: *base
              format: alibaba
              url: "https://203.107.1.1/100/sign_d?host={host}"
              auth: *auth
              retries: 3
              account: "10"
              tag: !!str 42
              note: |
                two lines
                 kept
              fallback: system
        apps:
          shop-android: {platform: android, trust: []}

        """

    @Test("a domain map with a nested httpdns mapping, a secret, an integer and a quoted number round-trips")
    func domainMapRoundTrips() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("source.yaml", Self.fixture)
        let excerpt = try #require(try YAMLExcerpt.value(at: ["domains", "ali"], inFile: path))
        let expected: YAMLValue = .mapping([
            // The merged keys stand where `<<` was; `fallback`, written in the mapping, wins.
            YAMLEntry("httpdns", .mapping([
                YAMLEntry("timeout", .plain("2s")),
                YAMLEntry("format", .plain("alibaba")),
                YAMLEntry("url", .string("https://203.107.1.1/100/sign_d?host={host}")),
                YAMLEntry("auth", .mapping([
                    YAMLEntry("scheme", .plain("alibaba-sign")),
                    YAMLEntry("secret", .string("${secret:ALI_SECRET}")),
                    YAMLEntry("valid_for", .plain("10m")),
                ])),
                YAMLEntry("retries", .plain("3")),
                YAMLEntry("account", .string("10")),
                YAMLEntry("tag", .string("42")),
                YAMLEntry("note", .string("two lines\n kept\n")),
                YAMLEntry("fallback", .plain("system")),
            ])),
        ])
        #expect(excerpt == expected)

        let document = [
            YAMLEntry("version", .integer(1)),
            YAMLEntry("domains", .mapping([YAMLEntry("ali", excerpt)])),
        ]
        let written = YAMLWriter.document(document)
        #expect(written.contains("        secret: ${secret:ALI_SECRET}\n"))
        #expect(written.contains("      account: \"10\"\n"))
        #expect(written.contains("      retries: 3\n"))
        #expect(written.contains("      note: \"two lines\\n kept\\n\"\n"))

        // Read back, each scalar reads as before: a string that was safe plain comes back plain
        // (`.plain`), and is written the same again.
        let copy = try workspace.write("copy.yaml", written)
        let again = try #require(try YAMLExcerpt.value(at: ["domains", "ali"], inFile: copy))
        #expect(YAMLWriter.document([document[0], YAMLEntry("domains", .mapping([YAMLEntry("ali", again)]))]) == written)
        #expect(try YAMLExcerpt.value(at: ["domains", "ali", "httpdns", "account"], inFile: copy) == .string("10"))
        #expect(try YAMLExcerpt.value(at: ["domains", "ali", "httpdns", "retries"], inFile: copy) == .plain("3"))
        #expect(try YAMLExcerpt.value(at: ["domains", "ali", "httpdns", "auth", "secret"], inFile: copy) == .plain("${secret:ALI_SECRET}"))
    }

    @Test("a static map's lists are written on one line; an app and the whole file are found by their paths")
    func otherPaths() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("source.yaml", Self.fixture)
        let shipped = try YAMLExcerpt.value(at: ["domains", "shipped"], inFile: path)
        #expect(shipped == .mapping([YAMLEntry("static", .mapping([
            YAMLEntry("api.example.com", .sequence([YAMLItem(.plain("203.0.113.10")), YAMLItem(.string("2001:db8::10"))], style: .flow)),
        ]))]))
        if let shipped {
            #expect(YAMLWriter.document([YAMLEntry("shipped", shipped)]) == """
                shipped:
                  static:
                    api.example.com: [203.0.113.10, "2001:db8::10"]

                """)
        }
        #expect(try YAMLExcerpt.value(at: ["apps", "shop-android"], inFile: path)
            == .mapping([YAMLEntry("platform", .plain("android")), YAMLEntry("trust", .sequence([], style: .flow))]))
        #expect(try YAMLExcerpt.value(at: ["version"], inFile: path) == .plain("1"))
        #expect(try YAMLExcerpt.value(at: ["domains", "absent"], inFile: path) == nil)
        #expect(try YAMLExcerpt.value(at: ["version", "deeper"], inFile: path) == nil)
        #expect(try YAMLExcerpt.value(at: ["clients", "gd-mobile"], inFile: path) == nil)
    }

    @Test("a file that is not valid YAML throws its plan error, located")
    func invalidFiles() throws {
        let workspace = try PlanWorkspace()
        let broken = try workspace.write("broken.yaml", "domains:\n  ali: [1, 2\n")
        let error = #expect(throws: PlanError.self) { try YAMLExcerpt.value(at: ["domains"], inFile: broken) }
        #expect(error?.description.hasPrefix(broken + ":") == true)
        #expect(error?.description.contains(": error: ") == true)

        let duplicate = try workspace.write("duplicate.yaml", "domains:\n  ali: 1\n  ali: 2\n")
        let duplicateError = #expect(throws: PlanError.self) { try YAMLExcerpt.value(at: ["domains"], inFile: duplicate) }
        #expect(duplicateError?.description == "\(duplicate):3:3: error: duplicate key 'ali' (first at 2:3)")
        #expect(duplicateError?.sourceLine == "  ali: 2")

        let missing = workspace.plans + "/missing.yaml"
        #expect(throws: PlanError.self) { try YAMLExcerpt.value(at: ["domains"], inFile: missing) }
    }
}
