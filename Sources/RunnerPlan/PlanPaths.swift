#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plan files a command line names: a file stands for itself; a folder for the `*.yaml`
/// and `*.yml` files directly in it, in name order (byte order, as `LC_ALL=C ls` sorts).
///
/// Subfolders, other files and hidden names (an editor's `.#plan.yaml` lock, `.plan.yaml.swp`)
/// are not plans. A folder that holds none is an error: a team's plan folder emptied by a bad
/// checkout must not pass as a run of nothing.
public enum PlanPaths {
    /// Each argument as the plan files it stands for, in order; every folder without plans and
    /// every folder that cannot be listed is an error (all of them, not just the first).
    public static func expand(_ arguments: [String]) throws(PlanErrors) -> [String] {
        var paths: [String] = []
        var errors: [PlanError] = []
        for argument in arguments {
            guard isDirectory(argument) else {
                // A file, or something that does not exist: the loader says which.
                paths.append(argument)
                continue
            }
            switch plans(inFolder: argument) {
            case .success(let found): paths += found
            case .failure(let error): errors.append(error)
            }
        }
        guard errors.isEmpty else { throw PlanErrors(errors) }
        return paths
    }

    /// The plan files directly in `folder`, each as `folder/NAME`.
    static func plans(inFolder folder: String) -> Result<[String], PlanError> {
        guard let directory = opendir(folder) else {
            return .failure(PlanError(location: nil, message: "cannot read plan folder '\(folder)': \(SourceText.systemError(errno))"))
        }
        defer { closedir(directory) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if isPlanName(name), isRegularFile(prefix + name) { names.append(name) }
        }
        guard !names.isEmpty else {
            return .failure(PlanError(
                location: nil,
                message: "plan folder '\(folder)' holds no plan: a plan is a *.yaml or *.yml file directly in it (subfolders are not read)"))
        }
        return .success(names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { prefix + $0 })
    }

    /// `NAME.yaml` or `NAME.yml`, not hidden.
    static func isPlanName(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        return (name.hasSuffix(".yaml") && name.count > 5) || (name.hasSuffix(".yml") && name.count > 4)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A regular file, or a link to one.
    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
