import Foundation

/// Where bytes stop being UTF-8. XMLParser on Linux traps on an element name that is not UTF-8
/// (found by fuzzing), so an XML trust file is checked before it is parsed: Android's resource
/// XML and Xcode's plists are UTF-8.
enum UTF8Check {
    /// The 1-based line and column (in characters) of the first byte that is not UTF-8, nil when all are.
    static func firstInvalidPosition(in data: Data) -> (line: Int, column: Int)? {
        if String(validating: data, as: UTF8.self) != nil { return nil }
        var line = 1
        var column = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
            }
        }
    }
}
