import Foundation
import LabTestSupport
import PlanFixtures
import RunnerLab
import Testing

/// `format: doh` end to end against a real RFC 8484 server: the `runner` binary resolves the
/// lab's names through Debian's unbound (`UnboundDoH`, HTTP/2 only, its own CA) reached by
/// `service_ips`, then connects to the lab at the addresses unbound gave.
@Suite("format: doh against unbound", .timeLimit(.minutes(3)))
struct DoHUnboundTests {
    /// The service's URL names doh.lab.test, which no resolver knows: `service_ips` reaches it on
    /// 127.0.0.1, verified as doh.lab.test against the scenario's `ca:`, a bundle of unbound's CA
    /// and the lab's (the scenarios' own requests go to the lab).
    static func plan(server: UnboundDoH, method: String, trust: String) -> String {
        """
        version: 1
        name: doh-\(method)
        defaults: {timeout: 5s, ca: "\(trust)", domains: doh}
        domains:
          doh:
            httpdns:
              format: doh
              url: "\(server.url)"
              method: \(method)
              service_ips: [\(UnboundDoH.listenAddress)]
              timeout: 5s
        scenarios:
          - name: api
            strategy: sni-resolve
            ips: all
            request: {url: "https://\(UnboundDoH.Names.api):{{https}}/echo"}
          - name: alias
            strategy: header-only
            ips: all
            request: {url: "http://\(UnboundDoH.Names.alias):{{http}}/echo"}
          - name: missing
            strategy: header-only
            request: {url: "http://\(UnboundDoH.Names.missing):{{http}}/echo"}
          - name: refused
            strategy: header-only
            request: {url: "http://\(UnboundDoH.Names.refused):{{http}}/echo"}
        """
    }

    /// One result of the JSON report, the fields these tests read.
    struct Result {
        var name: String
        var outcome: String
        var errorType: String?
        var errorMessage: String?
        var ipSource: String
        var connected: String?

        init(_ json: [String: Any]) {
            name = json["name"] as? String ?? ""
            outcome = json["outcome"] as? String ?? ""
            let error = json["error"] as? [String: Any]
            errorType = error?["type"] as? String
            errorMessage = error?["message"] as? String
            let evidence = json["evidence"] as? [String: Any]
            ipSource = evidence?["ip_source"] as? String ?? ""
            connected = ((evidence?["hops"] as? [[String: Any]])?.first?["connected_ip"]) as? String
        }
    }

    @Test(arguments: ["GET", "POST"])
    func resolvesThroughUnbound(method: String) async throws {
        let lab = try await SharedLab.get()
        try await UnboundDoH.with { server in
            let trust = try server.trustBundle(adding: lab.caPEM)
            let plan = try LabPlans.write(Self.plan(server: server, method: method, trust: trust), lab: lab)
            let json = server.directory.appendingPathComponent("report.json").path
            let output = try await PackageExecutable.run("runner", [plan, "-v", "--json", json], deadline: .seconds(60))
            let context = "stdout:\n\(output.stdout)\nstderr:\n\(output.stderr)\nunbound:\n\(server.log())"
            #expect(output.status == 1, "two scenarios are meant to error\n\(context)")

            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any],
                "\(context)")
            let results = try #require(
                ((report["suites"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.map(Result.init),
                "\(context)")
            func result(_ name: String) throws -> Result {
                try #require(results.first { $0.name == name }, "no result '\(name)' in \(results.map(\.name))\n\(context)")
            }
            let service = "HTTPDNS map 'doh' (doh) via \(server.url)"
            let at = "at \(UnboundDoH.listenAddress)"
            // Texts name the method beside the record type when it is not the default GET.
            let shown = method == "GET" ? "" : ", \(method)"

            // api.lab.test: both of unbound's addresses, each a result connected where it said.
            for ip in [UnboundDoH.Names.apiIPv4, UnboundDoH.Names.apiIPv6] {
                let api = try result("api [sni-resolve \(ip)]")
                #expect(api.outcome == "passed", "\(api)\n\(context)")
                #expect(api.connected == ip, "\(api)")
                #expect(api.ipSource.hasPrefix(service), "\(api.ipSource)")
                #expect(api.ipSource.contains("(A\(shown))") && api.ipSource.contains("(AAAA\(shown))"), "\(api.ipSource)")
                #expect(api.ipSource.contains(at), "\(api.ipSource)")
            }

            // alias.lab.test: the CNAME chain followed inside unbound's answer to api's addresses.
            for ip in [UnboundDoH.Names.apiIPv4, UnboundDoH.Names.apiIPv6] {
                let alias = try result("alias [header-only \(ip)]")
                #expect(alias.outcome == "passed", "\(alias)\n\(context)")
                #expect(alias.connected == ip, "\(alias)")
                #expect(alias.ipSource.hasPrefix(service) && alias.ipSource.contains(at), "\(alias.ipSource)")
            }

            // NXDOMAIN: no answer, a resolve error that says so.
            let missing = try result("missing [header-only]")
            #expect(missing.outcome == "error" && missing.errorType == "resolve", "\(missing)")
            let missingText = missing.errorMessage ?? ""
            #expect(missingText.contains("HTTPDNS map 'doh' (doh)") && missingText.contains(server.url), "\(missingText)")
            #expect(missingText.contains("no such name (NXDOMAIN)"), "\(missingText)")

            // REFUSED: the service's error, named.
            let refused = try result("refused [header-only]")
            #expect(refused.outcome == "error" && refused.errorType == "resolve", "\(refused)")
            let refusedText = refused.errorMessage ?? ""
            #expect(refusedText.contains("HTTPDNS map 'doh' (doh)") && refusedText.contains(server.url), "\(refusedText)")
            #expect(refusedText.contains("REFUSED (RCODE 5)"), "\(refusedText)")

            // Every answer came from unbound, asked once per name and family.
            for name in [UnboundDoH.Names.api, UnboundDoH.Names.alias, UnboundDoH.Names.missing] {
                for type in ["A", "AAAA"] {
                    #expect(server.queriesLogged(name, type: type) == 1, "\(name) \(type)\n\(server.log())")
                }
            }
            #expect(server.queriesLogged(UnboundDoH.Names.refused, type: "A") == 1, "\(server.log())")

            // The console says the same.
            #expect(output.stdout.contains("ip source: \(service) (A\(shown))"), "\(output.stdout)")
            #expect(output.stdout.contains("REFUSED (RCODE 5)"), "\(output.stdout)")
        }
    }
}
