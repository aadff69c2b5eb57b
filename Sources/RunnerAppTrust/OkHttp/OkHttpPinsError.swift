import RunnerVocabulary

/// An OkHttp `CertificatePinner` entry OkHttp refuses (`IllegalArgumentException` at build
/// time), located by the pattern and its place in the list (the plan maps it to its line).
public struct OkHttpPinsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var pattern: String
    /// The pattern's index in the list given to `OkHttpPins`.
    public var patternIndex: Int
    /// The pin's index in the pattern's list, nil for a problem with the pattern itself.
    public var pinIndex: Int?
    public var message: String

    public init(pattern: String, patternIndex: Int, pinIndex: Int?, message: String) {
        self.pattern = pattern
        self.patternIndex = patternIndex
        self.pinIndex = pinIndex
        self.message = message.withVisibleControls
    }

    /// `okhttp pins "PATTERN"[INDEX]: error: MESSAGE`.
    public var description: String {
        let pin = pinIndex.map { " pin \($0)" } ?? ""
        return "okhttp pins \"\(pattern.withVisibleControls)\"\(pin): error: \(message)"
    }
}
