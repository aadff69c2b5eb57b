import Foundation
import Testing

@testable import RunnerPlan

/// A folder on the command line stands for the plans directly in it, in name order.
@Suite("Plan folders")
struct PlanPathsTests {
    /// A fresh folder with these files (`name: contents`); a name ending in `/` is a subfolder.
    private func folder(_ entries: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runner-plan-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for entry in entries {
            if entry.hasSuffix("/") {
                try FileManager.default.createDirectory(atPath: path + "/" + entry, withIntermediateDirectories: true)
            } else {
                try "version: 1\n".write(toFile: path + "/" + entry, atomically: true, encoding: .utf8)
            }
        }
        return path
    }

    @Test func aFolderStandsForItsYAMLFilesInByteOrder() throws {
        let path = try folder([
            "b.yml", "a.yaml", "B.yaml", "10-late.yaml", "2-early.yaml", "notes.md", "plan.yaml.bak", ".hidden.yaml",
            "nested/", "dir.yaml/", ".yaml",
        ])
        try "version: 1\n".write(toFile: path + "/nested/inner.yaml", atomically: true, encoding: .utf8)
        let expanded = try PlanPaths.expand([path])
        #expect(expanded == ["10-late.yaml", "2-early.yaml", "B.yaml", "a.yaml", "b.yml"].map { path + "/" + $0 })
    }

    @Test func filesAndFoldersKeepTheCommandLineOrder() throws {
        let path = try folder(["x.yaml", "y.yaml"])
        let expanded = try PlanPaths.expand(["first.yaml", path + "/", "missing.yaml"])
        #expect(expanded == ["first.yaml", path + "/x.yaml", path + "/y.yaml", "missing.yaml"])
    }

    @Test func aLinkToAPlanIsAPlan() throws {
        let path = try folder(["real.yaml"])
        try FileManager.default.createSymbolicLink(atPath: path + "/link.yaml", withDestinationPath: path + "/real.yaml")
        try FileManager.default.createSymbolicLink(atPath: path + "/dangling.yaml", withDestinationPath: path + "/gone.yaml")
        #expect(try PlanPaths.expand([path]) == [path + "/link.yaml", path + "/real.yaml"])
    }

    @Test func everyFolderWithoutPlansIsAnError() throws {
        let empty = try folder(["README.md", "sub/"])
        let alsoEmpty = try folder([])
        let error = #expect(throws: PlanErrors.self) { try PlanPaths.expand([empty, alsoEmpty]) }
        #expect(error?.description == """
            error: plan folder '\(empty)' holds no plan: a plan is a *.yaml or *.yml file directly in it (subfolders are not read)
            error: plan folder '\(alsoEmpty)' holds no plan: a plan is a *.yaml or *.yml file directly in it (subfolders are not read)
            """)
    }
}
