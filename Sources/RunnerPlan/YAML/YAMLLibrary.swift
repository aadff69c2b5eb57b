internal import CYAML

/// The libyaml this process runs with, as `runner --version` names it for bug reports.
public enum YAMLLibrary {
    /// `libyaml/0.2.5`.
    public static var version: String {
        guard let text = yaml_get_version_string() else { return "libyaml (version unknown)" }
        return "libyaml/" + String(cString: text)
    }
}
