import Foundation

/// The repository's root (where Package.swift is), found from this file's path, and the files
/// inside it that tests read.
public enum Repository {
    public static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path), directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The JUnit schema the reports must validate against (`schemas/junit-10.xsd`).
    public static var junitSchema: URL { root.appendingPathComponent("schemas/junit-10.xsd") }

    /// The plan reference (`docs/plan-format.md`).
    public static var planReference: URL { root.appendingPathComponent("docs/plan-format.md") }

    /// The JSON Schema of plans, for editors (`docs/plan.schema.json`).
    public static var planSchema: URL { root.appendingPathComponent("docs/plan.schema.json") }

    /// check-jsonschema, in the virtual environment `make deps` makes for it
    /// (`tools/install-check-jsonschema.sh`).
    public static var checkJSONSchema: URL { root.appendingPathComponent(".tools/check-jsonschema/bin/check-jsonschema") }
}
