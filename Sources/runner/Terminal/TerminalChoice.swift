import ArgumentParser

/// When a terminal-only feature is on (`--color`, `--progress`): `auto` decides from whether
/// the stream is a terminal.
enum TerminalChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
