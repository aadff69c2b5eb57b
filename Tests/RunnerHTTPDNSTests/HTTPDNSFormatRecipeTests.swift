import Foundation
import PlanFixtures
import RunnerPlan
import Testing

/// The recipe for a new HTTPDNS format (docs/architecture.md, "Where to add…"), held by a test
/// rather than by hand: every format a plan accepts has a fuzz target that `fuzz/build.sh` builds
/// and `fuzz/run.sh` runs, committed seeds, and random bodies. (That the lab serves it is
/// `HTTPDNSFormatLabRecipeTests`' part, in RunnerEngineTests, which sees the lab.)
@Suite("Every HTTPDNS format has a fuzz target, seeds and random bodies")
struct HTTPDNSFormatRecipeTests {
    static let fuzz = Repository.root.appendingPathComponent("fuzz")

    @Test("its fuzz target exists, and the scripts build and run it", arguments: HTTPDNSSpec.Format.Name.allCases)
    func fuzzTarget(name: HTTPDNSSpec.Format.Name) async throws {
        let target = Self.fuzz.appendingPathComponent("targets/\(name.rawValue).swift")
        #expect(FileManager.default.fileExists(atPath: target.path), "no fuzz target \(target.path)")
        for script in ["build.sh", "run.sh"] {
            let listed = try await Self.targets(listedBy: script)
            #expect(listed.contains(name.rawValue), "fuzz/\(script) --list gives \(listed)")
        }
    }

    @Test("its fuzz target has committed seeds", arguments: HTTPDNSSpec.Format.Name.allCases)
    func corpus(name: HTTPDNSSpec.Format.Name) {
        let folder = Self.fuzz.appendingPathComponent("corpus/\(name.rawValue)")
        let seeds = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(!seeds.isEmpty, "no seeds in \(folder.path)")
    }

    @Test("the random-body tests cover it", arguments: HTTPDNSSpec.Format.Name.allCases)
    func randomBodies(name: HTTPDNSSpec.Format.Name) {
        #expect(HTTPDNSRandomBodyTests.formats.contains(name))
        #expect(!HTTPDNSRandomBodyTests.recorded(name).isEmpty, "no recorded bodies to mutate")
    }

    /// What `fuzz/SCRIPT --list` prints: the targets it builds or runs, derived from `fuzz/targets/`.
    static func targets(listedBy script: String) async throws -> [String] {
        let path = fuzz.appendingPathComponent(script).path
        let output = try await offPool {
            try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [path, "--list"], deadline: .seconds(60))
        }
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
