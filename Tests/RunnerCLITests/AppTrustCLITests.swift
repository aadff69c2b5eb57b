import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// An app's own trust files against the lab (issue 44): an Android Network Security Config, an
/// iOS Info.plist (XML, and the same in binary form) and OkHttp pins, checked under sni-resolve,
/// trust-override and header-only. The rotated-key edge (`LabAddress.staleEdge`, a second leaf
/// key under the same CA) fails where the app's pins apply and not where IP direct leaves them
/// off, which the IP-gap warning says; cleartext the app forbids fails; an expired pin-set and a
/// pin set without a backup key are warnings (failures under --strict); `runner app show`
/// answers without a request; a file Android refuses is a plan error at its line.
@Suite("apps' own trust files", .timeLimit(.minutes(3)))
struct AppTrustCLITests {
    /// The lab's pins as base64 (no `sha256/`), as the files spell them.
    struct Pins {
        var leaf: String
        var ca: String
        /// A key no lab certificate has: the backup an app would pin.
        var backup = Data(repeating: 7, count: 32).base64EncodedString()
    }

    static func pins(_ lab: Lab, in directory: URL) async throws -> Pins {
        func bare(_ pin: String) -> String { String(pin.dropFirst("sha256/".count)) }
        return Pins(
            leaf: bare(try await MobileTrustCLITests.pin(ofPEM: lab.primaryLeafPEM, in: directory)),
            ca: bare(try await MobileTrustCLITests.pin(ofPEM: lab.caPEM, in: directory)))
    }

    /// The app's files in `directory`: `android/network_security_config.xml` (api.lab.test pinned
    /// to the current leaf and a backup key, single.lab.test to a pin-set that expired in 2020,
    /// cleartext refused everywhere, the lab's CA in `raw/`), `ios/Info.plist` (NSPinnedDomains:
    /// the lab CA for api.lab.test) and its binary twin `ios/Info-binary.plist`.
    static func writeApp(_ lab: Lab, pins: Pins, in directory: URL) throws {
        let manager = FileManager.default
        for folder in ["android/raw", "ios"] {
            try manager.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try lab.caPEM.write(to: directory.appendingPathComponent("android/raw/lab_ca.pem"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
                <base-config cleartextTrafficPermitted="false">
                    <trust-anchors><certificates src="system"/><certificates src="@raw/lab_ca"/></trust-anchors>
                </base-config>
                <domain-config>
                    <domain>api.lab.test</domain>
                    <pin-set expiration="2099-01-01">
                        <pin digest="SHA-256">\(pins.leaf)</pin>
                        <pin digest="SHA-256">\(pins.backup)</pin>
                    </pin-set>
                </domain-config>
                <domain-config>
                    <domain>single.lab.test</domain>
                    <pin-set expiration="2020-01-01"><pin digest="SHA-256">\(pins.backup)</pin></pin-set>
                </domain-config>
            </network-security-config>
            """.write(to: directory.appendingPathComponent("android/network_security_config.xml"), atomically: true, encoding: .utf8)
        let plist: [String: Any] = [
            "CFBundleIdentifier": "test.lab.shop",
            "NSAppTransportSecurity": [
                "NSPinnedDomains": ["api.lab.test": ["NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": pins.ca]]]],
            ],
        ]
        for (name, format) in [("Info.plist", PropertyListSerialization.PropertyListFormat.xml), ("Info-binary.plist", .binary)] {
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
            try data.write(to: directory.appendingPathComponent("ios/\(name)"))
        }
    }

    /// The lab, a fresh folder with the app's files in it, and the lab's pins.
    static func prepare() async throws -> (Lab, URL, Pins) {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        let pins = try await Self.pins(lab, in: directory)
        try Self.writeApp(lab, pins: pins, in: directory)
        return (lab, directory, pins)
    }

    static func plan(_ lab: Lab, pins: Pins, in directory: URL, path: String = "/echo") throws -> String {
        let file = directory.appendingPathComponent("plan.yaml")
        try LabPlans.fill("""
            version: 1
            name: apps
            apps:
              shop-android:
                android: {network_security_config: android/network_security_config.xml, target_sdk: 34, raw: android/raw}
                okhttp: {pins: {"api.lab.test": ["sha256/\(pins.leaf)"]}}
              shop-ios:
                ios: {info_plist: ios/Info.plist, version: 17}
              shop-ios-binary:
                ios: {info_plist: ios/Info-binary.plist, version: 17}
            defaults: {ca: "{{ca}}", domains: edges, app: [shop-android, shop-ios, shop-ios-binary]}
            domains:
              edges: {static: {api.lab.test: [\(LabAddress.primary), \(LabAddress.staleEdge)], single.lab.test: [\(LabAddress.primary)]}}
            scenarios:
              - {name: api, ips: all, strategy: [sni-resolve, trust-override], request: {url: "https://api.lab.test:{{https}}\(path)"}}
              - {name: plain, strategy: header-only, app: shop-android, request: {url: "http://api.lab.test:{{http}}\(path)"}}
              - {name: single, strategy: sni-resolve, app: shop-android, request: {url: "https://single.lab.test:{{https}}\(path)"}}
            """, lab: lab).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The JSON report's results by name.
    static func results(_ file: URL) throws -> [String: [String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let results = try #require((report["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: results.compactMap { result in (result["name"] as? String).map { ($0, result) } })
    }

    static func policies(_ result: [String: Any]?) -> [[String: Any]] {
        (result?["evidence"] as? [String: Any])?["app_policy"] as? [[String: Any]] ?? []
    }

    static func warnings(_ result: [String: Any]?) -> [String] {
        ((result?["evidence"] as? [String: Any])?["app_warnings"] as? [[String: Any]] ?? []).map { "\($0["app"] ?? "") \($0["kind"] ?? "")" }
    }

    @Test func eachResultIsCheckedAsTheAppsWouldCheckIt() async throws {
        let (lab, directory, pins) = try await Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try Self.plan(lab, pins: pins, in: directory)
        let json = directory.appendingPathComponent("report.json")
        let junit = directory.appendingPathComponent("junit.xml")
        let metrics = directory.appendingPathComponent("metrics.prom")
        let output = try await PackageExecutable.run(
            "runner", [plan, "--json", json.path, "--junit", junit.path, "--metrics", metrics.path, "--color", "never", "-v"],
            directory: directory)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let results = try Self.results(json)
        let stale = "api [sni-resolve \(LabAddress.staleEdge)]"
        let current = "api [sni-resolve \(LabAddress.primary)]"
        let overridden = "api [trust-override \(LabAddress.staleEdge)]"

        // The rotated key under sni-resolve: Android's and OkHttp's pins apply (the name) and
        // match no certificate; iOS pins the CA, which the edge still chains to.
        #expect(results[stale]?["outcome"] as? String == "failed", "\(results[stale] ?? [:])")
        let problems = results[stale]?["problems"] as? [[String: Any]] ?? []
        #expect(problems.allSatisfy { $0["kind"] as? String == "app-policy" } && problems.count == 2, "\(problems)")
        #expect(Set(problems.compactMap { $0["subject"] as? String })
            == ["app shop-android (android) pins for api.lab.test", "app shop-android (okhttp) pins for api.lab.test"])
        let stalePolicies = Self.policies(results[stale])
        #expect(stalePolicies.first { $0["platform"] as? String == "android" }?["pin_check"] as? String == "no pin matched")
        #expect(stalePolicies.first { $0["app"] as? String == "shop-ios" }?["pin_check"] as? String == "matched \(pins.ca)")
        let junitText = try String(contentsOf: junit, encoding: .utf8)
        #expect(junitText.contains(#"<failure type="app-policy" message="app shop-android (android) pins for api.lab.test"#), "\(junitText)")

        // The current edge passes; the rule that applied and where it is written.
        #expect(results[current]?["outcome"] as? String == "passed", "\(results[current] ?? [:])")
        let android = try #require(Self.policies(results[current]).first { $0["platform"] as? String == "android" })
        #expect(android["keyed_on"] as? String == "name" && android["key"] as? String == "api.lab.test")
        #expect((android["source"] as? [String: Any])?["file"] as? String == "android/network_security_config.xml")
        #expect((android["source"] as? [String: Any])?["line"] as? Int == 6)
        #expect(android["pins_enforced"] as? Bool == true && android["cleartext"] as? Bool == false)
        #expect(android["anchors"] as? [String] == ["system", "@raw/lab_ca"])
        // OkHttp pins the leaf alone: a rotation bricks the app.
        #expect(Self.warnings(results[current]) == ["shop-android no-backup-pin"], "\(Self.warnings(results[current]))")
        // The binary Info.plist is read as the XML one.
        let ios = Self.policies(results[current]).filter { ($0["app"] as? String)?.hasPrefix("shop-ios") == true }
        #expect(ios.count == 2 && ios[0]["pins"] as? [String] == [pins.ca] && ios[1]["pins"] as? [String] == [pins.ca]
            && ios[0]["pin_check"] as? String == ios[1]["pin_check"] as? String && ios[0]["tls_min"] as? String == "1.2", "\(ios)")

        // Trust override: Android keys on the address (its base-config, no pins), so the rotated
        // key passes, and the IP gap is said; iOS's trust code checks the name, its pins apply.
        #expect(results[overridden]?["outcome"] as? String == "passed", "\(results[overridden] ?? [:])")
        let gap = try #require(Self.policies(results[overridden]).first { $0["platform"] as? String == "android" })
        #expect(gap["keyed_on"] as? String == "address" && gap["key"] as? String == LabAddress.staleEdge)
        #expect(gap["pins_enforced"] as? Bool == false && gap["why_not"] as? String == "keyed-on-address")
        #expect((gap["source"] as? [String: Any])?["line"] as? Int == 3, "base-config")
        #expect(Self.warnings(results[overridden]).filter { $0.hasSuffix("pins-not-applied") } == [
            "shop-android pins-not-applied", "shop-android pins-not-applied",
        ])
        let iosOverridden = Self.policies(results[overridden]).first { $0["app"] as? String == "shop-ios" }
        #expect(iosOverridden?["pins_enforced"] as? Bool == true && iosOverridden?["keyed_on"] as? String == "address")
        #expect(output.stdout.contains(
            "the android pins for api.lab.test do not apply to this request (trust-override sends it to https://\(LabAddress.staleEdge))"),
            "\(output.stdout)")
        // The IP gap only where the stack keys on the address: never under sni-resolve.
        #expect(!Self.warnings(results[stale]).contains { $0.hasSuffix("pins-not-applied") })

        // Cleartext the app refuses; an expired pin-set.
        let plain = results["plain [header-only \(LabAddress.primary)]"]
        #expect(plain?["outcome"] as? String == "failed" && (plain?["problems"] as? [[String: Any]])?.first?["kind"] as? String == "app-policy",
            "\(plain ?? [:])")
        let single = results["single [sni-resolve \(LabAddress.primary)]"]
        #expect(single?["outcome"] as? String == "passed" && Self.warnings(single) == ["shop-android pins-expired"], "\(single ?? [:])")

        // The metrics: each pin-set's expiry by the name, and the results each kind touched.
        let exposition = try String(contentsOf: metrics, encoding: .utf8)
        for line in [
            #"runner_app_pins_expiry_timestamp_seconds{plan="apps",app="shop-android",platform="android",host="api.lab.test"} 4070908800"#,
            #"runner_app_pins_expiry_timestamp_seconds{plan="apps",app="shop-android",platform="android",host="single.lab.test"} 1577836800"#,
            #"runner_app_policy_problems{plan="apps",app="shop-android",host="api.lab.test",strategy="sni-resolve",kind="pins"} 1"#,
            #"runner_app_policy_problems{plan="apps",app="shop-android",host="api.lab.test",strategy="trust-override",kind="pins-not-applied"} 2"#,
            #"runner_app_policy_problems{plan="apps",app="shop-android",host="api.lab.test",strategy="header-only",kind="cleartext"} 1"#,
            #"runner_app_policy_problems{plan="apps",app="shop-android",host="single.lab.test",strategy="sni-resolve",kind="pins-expired"} 1"#,
        ] {
            #expect(exposition.contains(line + "\n"), "\(line)\n\(exposition)")
        }
        #expect(!exposition.contains(#"app="shop-ios",host="api.lab.test",strategy="sni-resolve",kind="pins""#), "iOS pins the CA: no refusal")
        let promtool = try await PackageExecutable.runTool("/bin/sh", ["-c", "promtool check metrics < \"$1\"", "check", metrics.path])
        #expect(promtool.status == 0, "\(promtool.stdout)\(promtool.stderr)")
    }

    @Test func warningsFailUnderStrict() async throws {
        let (lab, directory, pins) = try await Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try Self.plan(lab, pins: pins, in: directory)
        let json = directory.appendingPathComponent("report.json")
        let output = try await PackageExecutable.run(
            "runner", [plan, "--strict", "--filter", "single", "--json", json.path, "--color", "never"], directory: directory)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let single = try Self.results(json)["single [sni-resolve \(LabAddress.primary)]"]
        let problem = (single?["problems"] as? [[String: Any]])?.first
        #expect(problem?["kind"] as? String == "app-policy" && problem?["subject"] as? String == "app shop-android pins-expired", "\(single ?? [:])")
    }

    /// The rules per host, strategy and address, and not one request to the lab.
    @Test func appShowAnswersWithoutARequest() async throws {
        let (lab, directory, pins) = try await Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = "/app-show-\(UUID().uuidString)"
        let plan = try Self.plan(lab, pins: pins, in: directory, path: path)
        let shown = try await PackageExecutable.run(
            "runner", ["app", "show", plan, "--app", "shop-android", "--json"], directory: directory)
        #expect(shown.status == 0, "\(shown.stdout)\(shown.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])
        let android = rows.filter { $0["platform"] as? String == "android" && $0["host"] as? String == "api.lab.test" }
        #expect(android.map { "\($0["strategy"] ?? "") \($0["address"] ?? "nil") \($0["keyed_on"] ?? "")" }.sorted() == [
            "sni-resolve <null> name", "trust-override \(LabAddress.primary) address", "trust-override \(LabAddress.staleEdge) address",
            // The plain scenario's header-only, for every address the map answers.
            "header-only \(LabAddress.primary) address", "header-only \(LabAddress.staleEdge) address",
        ].sorted(), "\(android)")
        #expect(android.allSatisfy { Set($0.keys) == [
            "plan", "app", "host", "strategy", "address", "keyed_on", "platform", "source", "cleartext", "anchors", "pins", "pins_expire",
            "pins_enforced", "why_not", "tls_min", "forward_secrecy",
        ] })
        let byName = try #require(android.first { $0["strategy"] as? String == "sni-resolve" })
        #expect(byName["pins"] as? [String] == [pins.leaf, pins.backup] && byName["pins_expire"] as? String == "2099-01-01")
        #expect(lab.requestsReceived(path: path) == 0)
        let table = try await PackageExecutable.run("runner", ["app", "show", plan, "--strategy", "trust-override"], directory: directory)
        #expect(table.status == 0 && table.stdout.contains("KEYED ON") && table.stdout.contains("off (keyed-on-address)"), "\(table.stdout)")
        let unknown = try await PackageExecutable.run("runner", ["app", "show", plan, "--app", "shop-andriod"], directory: directory)
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean 'shop-android'?"), "\(unknown.stderr)")
        #expect(lab.requestsReceived(path: path) == 0)
    }

    /// A file Android refuses is a plan error at its own line and column, with the line shown.
    @Test func aFileThePlatformRefusesIsAPlanErrorAtItsLine() async throws {
        let (lab, directory, pins) = try await Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("android/network_security_config.xml")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: #"<pin digest="SHA-256">\#(pins.backup)</pin>"#, with: #"<pin digest="SHA-1">\#(pins.backup)</pin>"#)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let plan = try Self.plan(lab, pins: pins, in: directory)
        let checked = try await PackageExecutable.run("runner", ["check", plan], directory: directory)
        #expect(checked.status == 2, "\(checked.stdout)\(checked.stderr)")
        let lines = checked.stderr.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("android/network_security_config.xml:10:") }, "\(checked.stderr)")
        #expect(lines[index].contains("error: ") && lines[index].contains("SHA-1"), "\(lines[index])")
        #expect(lines.indices.contains(index + 1) && lines[index + 1].contains(#"<pin digest="SHA-1">"#), "the line is shown")
    }
}

/// docs/guides/app-pins.md: its plan, with the files it shows beside it, checks; `runner app
/// show` gives the gap the guide describes.
@Suite("the app-pins guide", .timeLimit(.minutes(1)))
struct AppPinsGuideTests {
    @Test func theGuidesPlanChecksAndShowsTheGap() async throws {
        let file = URL(fileURLWithPath: try GuidePlan.write("app-pins.md"))
        let folder = file.deletingLastPathComponent()
        let guide = try String(contentsOf: Repository.root.appendingPathComponent("docs/guides/app-pins.md"), encoding: .utf8)
        let blocks = guide.components(separatedBy: "```xml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        try #require(blocks.count == 2)
        for (block, path) in zip(blocks, ["app/android/network_security_config.xml", "app/ios/Info.plist"]) {
            let target = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try block.write(to: target, atomically: true, encoding: .utf8)
        }
        let check = try await PackageExecutable.run("runner", ["check", file.path])
        #expect(check.status == 0 && check.stdout == "\(file.path): ok (1 scenario)\n", "\(check.stdout)\(check.stderr)")
        let shown = try await PackageExecutable.run("runner", ["app", "show", file.path, "--strategy", "trust-override", "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 6, "two addresses × android, okhttp and ios: \(rows)")
        for row in rows {
            let platform = row["platform"] as? String
            let off = platform != "ios"
            #expect(row["pins_enforced"] as? Bool == !off && (row["why_not"] as? String) == (off ? "keyed-on-address" : nil), "\(row)")
        }
    }
}

/// An Android app's trust anchors against the lab's private CA: `system` (this machine's store)
/// does not hold it, so the app refuses the chain; `@raw/lab_ca` does.
@Suite("an Android app's trust anchors", .timeLimit(.minutes(1)))
struct AppTrustAnchorTests {
    @Test func aChainTheAppsAnchorsDoNotHoldFailsAsAppPolicy() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("raw"), withIntermediateDirectories: true)
        try lab.caPEM.write(to: directory.appendingPathComponent("raw/lab_ca.pem"), atomically: true, encoding: .utf8)
        for (name, anchors) in [("system-only", #"<certificates src="system"/>"#), ("lab-ca", #"<certificates src="@raw/lab_ca"/>"#)] {
            try """
                <?xml version="1.0" encoding="utf-8"?>
                <network-security-config>
                    <base-config><trust-anchors>\(anchors)</trust-anchors></base-config>
                </network-security-config>
                """.write(to: directory.appendingPathComponent("\(name).xml"), atomically: true, encoding: .utf8)
        }
        let plan = directory.appendingPathComponent("plan.yaml")
        try LabPlans.fill("""
            version: 1
            apps:
              system-only: {android: {network_security_config: system-only.xml, raw: raw}}
              lab-ca: {android: {network_security_config: lab-ca.xml, raw: raw}}
            defaults: {ca: "{{ca}}", strategy: sni-resolve, domains: edges}
            domains:
              edges: {static: {api.lab.test: [\(LabAddress.primary)]}}
            scenarios:
              - {name: system only, app: system-only, request: {url: "https://api.lab.test:{{https}}/echo"}}
              - {name: lab ca, app: lab-ca, request: {url: "https://api.lab.test:{{https}}/echo"}}
            """, lab: lab).write(to: plan, atomically: true, encoding: .utf8)
        let json = directory.appendingPathComponent("report.json")
        let output = try await PackageExecutable.run("runner", [plan.path, "--json", json.path, "--color", "never"], directory: directory)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let results = try AppTrustCLITests.results(json)
        let refused = results["system only [sni-resolve \(LabAddress.primary)]"]
        let problem = (refused?["problems"] as? [[String: Any]])?.first
        #expect(problem?["kind"] as? String == "app-policy" && problem?["subject"] as? String == "app system-only (android) trust anchors for api.lab.test",
            "\(refused ?? [:])")
        #expect((problem?["actual"] as? String)?.hasPrefix("a chain ending at CN=runner lab CA,O=runner lab (sha256/") == true, "\(problem ?? [:])")
        #expect(AppTrustCLITests.policies(refused).first?["refused"] as? [String] == ["anchors"])
        #expect(results["lab ca [sni-resolve \(LabAddress.primary)]"]?["outcome"] as? String == "passed", "\(results)")
    }

    /// An `@raw` anchor whose file holds no certificate is a plan error (the app would fail on it).
    @Test func aRawAnchorWithoutACertificateIsAPlanError() async throws {
        let directory = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("raw"), withIntermediateDirectories: true)
        try "not a certificate\n".write(to: directory.appendingPathComponent("raw/lab_ca.pem"), atomically: true, encoding: .utf8)
        try #"<network-security-config><base-config><trust-anchors><certificates src="@raw/lab_ca"/></trust-anchors></base-config></network-security-config>"#
            .write(to: directory.appendingPathComponent("nsc.xml"), atomically: true, encoding: .utf8)
        try """
            version: 1
            apps: {a: {android: {network_security_config: nsc.xml, raw: raw}}}
            scenarios: [{name: s, app: a, request: {url: "https://api.example.com/"}}]
            """.write(to: directory.appendingPathComponent("plan.yaml"), atomically: true, encoding: .utf8)
        let checked = try await PackageExecutable.run("runner", ["check", "plan.yaml"], directory: directory)
        let column = "apps: {a: {android: {network_security_config: nsc.xml, raw: ".count + 1
        #expect(checked.status == 2 && checked.stderr.contains(
            "plan.yaml:2:\(column): error: trust anchor @raw/lab_ca of 'nsc.xml' holds no certificate (PEM) in raw folder 'raw'"),
            "\(checked.stderr)")
    }
}

/// An edge requested by its IP (`LabAddress.ipOnly`: a certificate for the IP alone): the app's
/// rules are those written for the IP itself (an NSC domain that is the IP literal, an OkHttp
/// pattern that is the address), which apply and are checked.
@Suite("rules written for an IP", .timeLimit(.minutes(1)))
struct AppTrustIPOnlyTests {
    @Test func rulesWrittenForTheIPApplyToAnEdgeRequestedByIt() async throws {
        let lab = try await SharedLab.get()
        let directory = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pin = String(try await MobileTrustCLITests.pin(ofPEM: lab.ipOnlyLeafPEM, in: directory).dropFirst("sha256/".count))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("raw"), withIntermediateDirectories: true)
        try lab.caPEM.write(to: directory.appendingPathComponent("raw/lab_ca.pem"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
                <base-config><trust-anchors><certificates src="@raw/lab_ca"/></trust-anchors></base-config>
                <domain-config>
                    <domain>\(LabAddress.ipOnly)</domain>
                    <pin-set><pin digest="SHA-256">\(pin)</pin><pin digest="SHA-256">\(Data(repeating: 9, count: 32).base64EncodedString())</pin></pin-set>
                </domain-config>
            </network-security-config>
            """.write(to: directory.appendingPathComponent("nsc.xml"), atomically: true, encoding: .utf8)
        let plan = directory.appendingPathComponent("plan.yaml")
        try LabPlans.fill("""
            version: 1
            apps:
              edge-app:
                android: {network_security_config: nsc.xml, raw: raw}
                okhttp: {pins: {"\(LabAddress.ipOnly)": ["sha256/\(Data(repeating: 9, count: 32).base64EncodedString())"]}}
            scenarios:
              - {name: by ip, app: edge-app, ca: "{{ca}}", strategy: system, request: {url: "https://\(LabAddress.ipOnly):{{https}}/echo"}}
            """, lab: lab).write(to: plan, atomically: true, encoding: .utf8)
        let json = directory.appendingPathComponent("report.json")
        let output = try await PackageExecutable.run("runner", [plan.path, "--json", json.path, "--color", "never"], directory: directory)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let result = try #require(try AppTrustCLITests.results(json)["by ip [system]"], "\(output.stdout)")
        let policies = AppTrustCLITests.policies(result)
        let android = try #require(policies.first { $0["platform"] as? String == "android" })
        #expect(android["key"] as? String == LabAddress.ipOnly && android["pins_enforced"] as? Bool == true, "\(android)")
        #expect(android["pin_check"] as? String == "matched \(pin)" && (android["source"] as? [String: Any])?["line"] as? Int == 4)
        // OkHttp's pattern for the address applies too, and pins a key the edge does not have.
        let okhttp = try #require(policies.first { $0["platform"] as? String == "okhttp" })
        #expect(okhttp["pin_check"] as? String == "no pin matched" && okhttp["refused"] as? [String] == ["pins"], "\(okhttp)")
        #expect((result["problems"] as? [[String: Any]])?.map { $0["subject"] as? String } == ["app edge-app (okhttp) pins for \(LabAddress.ipOnly)"])
    }
}
