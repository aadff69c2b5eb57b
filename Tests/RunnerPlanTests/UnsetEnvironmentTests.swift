import Foundation
import PlanFixtures
import Testing

@testable import RunnerPlan
import RunnerVocabulary

/// `PlanLoader.check` with `UnsetEnvironment.unknown` (`runner check --no-env`, issue 43): an
/// error only an unset variable's value decides is a note; every other error stays an error; the
/// variables read are listed; with `.error`, nothing changes.
@Suite("Plans checked without the environment")
struct UnsetEnvironmentTests {
    static func check(
        _ yaml: String, environment: [String: String] = [:], unset: UnsetEnvironment = .unknown
    ) throws(PlanErrors) -> PlanCheck {
        let workspace: PlanWorkspace
        let path: String
        do {
            workspace = try PlanWorkspace()
            path = try workspace.write("plan.yaml", yaml)
        } catch {
            throw PlanErrors([PlanError(location: nil, message: "cannot write the plan: \(error)")])
        }
        return try withExtendedLifetime(workspace) { () throws(PlanErrors) -> PlanCheck in
            try PlanLoader.check(path: path, environment: environment, unsetEnvironment: unset)
        }
    }

    static let prod = Repository.root.appendingPathComponent("plans/prod.yaml").path

    @Test("plans/prod.yaml loads with no environment: its four secrets listed, what they decide noted")
    func prodTemplate() throws {
        let check = try PlanLoader.check(path: Self.prod, environment: [:], unsetEnvironment: .unknown)
        #expect(check.scenarioCount == 10)
        #expect(check.plan.scenarios.count == 10)
        #expect(
            Set(check.environment) == [
                EnvironmentVariableUse(name: "ALI_HTTPDNS_SECRET", isSecret: true),
                EnvironmentVariableUse(name: "DNSPOD_AES_KEY", isSecret: true),
                EnvironmentVariableUse(name: "VOLC_HTTPDNS_SECRET", isSecret: true),
                EnvironmentVariableUse(name: "PROBE_PASSWORD", isSecret: true),
            ])
        #expect(!check.notes.isEmpty)
        #expect(check.notes.allSatisfy { $0.severity == .note && $0.description.contains(": note: not checked without ${secret:") })
        // File order, each with its snippet, its end and its key path, as errors have.
        #expect(check.notes.map { $0.location?.line ?? 0 } == check.notes.map { $0.location?.line ?? 0 }.sorted())
        #expect(check.notes.allSatisfy { $0.sourceLine != nil && $0.end != nil && $0.keyPath != nil })
        // No value was read, so none is a secret to mask.
        #expect(check.plan.secrets.isEmpty)
    }

    @Test("with .error (a run), nothing changes: each unset variable is an error")
    func errorModeUnchanged() throws {
        #expect(throws: PlanErrors.self) { try PlanLoader.check(path: Self.prod, environment: [:], unsetEnvironment: .error) }
        do {
            _ = try PlanLoader.check(path: Self.prod, environment: [:], unsetEnvironment: .error)
        } catch {
            #expect(error.errors.count == 4)
            #expect(error.errors.allSatisfy { $0.severity == .error && $0.message.hasPrefix("environment variable '") })
        }
    }

    @Test("a value the environment has is checked: a DNSPod key too long is an error, not a note")
    func presentValuesAreChecked() throws {
        let plan = """
            version: 1
            domains:
              dnspod:
                httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}", auth: {scheme: dnspod-aes, key: "${secret:KEY}"}}
            scenarios:
              - {name: a, domains: dnspod, request: {url: "https://api.example.com/"}}

            """
        let noted = try Self.check(plan)
        #expect(noted.notes.map(\.message).first?.hasPrefix("not checked without ${secret:KEY}, which is not read") == true, "\(noted.notes)")
        #expect(throws: PlanErrors.self) { try Self.check(plan, environment: ["KEY": String(repeating: "k", count: 17)]) }
        #expect(try Self.check(plan, environment: ["KEY": "sixteen-byte-key"]).notes.isEmpty)
    }

    @Test("a var made of ${env:…} carries the unknown value to where it is used; the rest is still checked")
    func derivedVariables() throws {
        let plan = """
            version: 1
            vars:
              host: "${env:API_HOST}"
              token: "${secret:TOKEN}"
              also: "${env:TOKEN}"
            scenarios:
              - name: a
                request: {url: "https://${host}/", headers: {Authorization: "Bearer ${token}"}}
                timeout: 3s

            """
        let check = try Self.check(plan)
        // The URL cannot be built (its note says why); the header takes any text (no note).
        #expect(check.notes.count == 1, "\(check.notes)")
        #expect(check.notes.first?.location?.line == 8)
        #expect(check.notes.first?.message.hasPrefix("not checked without ${env:API_HOST}, which is not read: taken as empty, ") == true)
        #expect(check.scenarioCount == 1)
        // Read as a secret once is a secret.
        #expect(check.environment.sorted { $0.name < $1.name } == [
            EnvironmentVariableUse(name: "API_HOST", isSecret: false), EnvironmentVariableUse(name: "TOKEN", isSecret: true),
        ])

        // A mistake that is no value's stays an error, the notes beside it.
        do {
            _ = try Self.check(plan.replacingOccurrences(of: "timeout: 3s", with: "timeout: 3"))
            Issue.record("a bare-number timeout passed")
        } catch {
            #expect(error.errors.filter { $0.severity == .error }.map(\.location?.line) == [9])
            #expect(error.errors.filter { $0.severity == .note }.map(\.location?.line) == [8])
        }
    }

    @Test("a reference's syntax and place are still checked")
    func syntaxAndPlace() {
        let head = "version: 1\nscenarios:\n  - name: a\n    request: {url: 'https://api.example.com/'}\n"
        for (line, message) in [
            ("    timeout: ${env:}\n", "missing environment variable name in '${env:}'"),
            ("    timeout: ${env:T\n", "unterminated '${' (no closing '}'); write '$${' for a literal '${'"),
        ] {
            do {
                _ = try Self.check(head + line)
                Issue.record("\(line) passed")
            } catch {
                #expect(error.errors.map(\.message) == [message])
            }
        }
        // A credential must be exactly one ${secret:…}: an env reference there is an error.
        let auth = """
            version: 1
            domains: {d: {httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}", auth: {scheme: dnspod-aes, key: "${env:KEY}"}}}}
            scenarios:
              - {name: a, domains: d, request: {url: "https://api.example.com/"}}

            """
        do {
            _ = try Self.check(auth)
            Issue.record("an ${env:…} credential passed")
        } catch {
            #expect(error.errors.filter { $0.severity == .error }.count == 1, "\(error.errors)")
        }
    }
}
