import Foundation
import LabTestSupport
import PlanFixtures
import Testing

/// The README's usage line, `runner check plans/prod.yaml`, run as a person runs it: the built
/// runner, from the repository's root, with the template's secrets in the environment.
@Suite("runner check plans/prod.yaml", .timeLimit(.minutes(3)))
struct ProdPlanCheckTests {
    static let secrets = [
        "ALI_HTTPDNS_SECRET": "ali-signing-secret-7f3a", "DNSPOD_AES_KEY": "dnspod-key-16byt",
        "VOLC_HTTPDNS_SECRET": "volc-signing-secret-91c2", "PROBE_PASSWORD": "probe-password-c4d1",
    ]

    @Test func checkPassesWithTheSecretsInTheEnvironment() async throws {
        let output = try await PackageExecutable.run(
            "runner", ["check", "plans/prod.yaml"], environment: Self.secrets, directory: Repository.root)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "plans/prod.yaml: ok (10 scenarios)\n")
        #expect(output.stderr == "")
        for value in Self.secrets.values {
            #expect(!(output.stdout + output.stderr).contains(value))
        }
    }

    /// Without them the plan is invalid, and each error names the variable to set: the secrets
    /// are read from the environment, not written in the file.
    @Test func eachMissingSecretIsNamed() async throws {
        let unset = Self.secrets.keys.filter { ProcessInfo.processInfo.environment[$0] != nil }
        try #require(unset.isEmpty, "the test process itself has \(unset) set")
        let output = try await PackageExecutable.run("runner", ["check", "plans/prod.yaml"], directory: Repository.root)
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        let named = Set(errors.compactMap { line -> String? in
            guard let range = line.range(of: "environment variable '") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "'" })
        })
        #expect(named == Set(Self.secrets.keys), "\(output.stderr)")
        #expect(errors.count == Self.secrets.count, "\(output.stderr)")
    }
}
