/// The terminal colours the console and the progress line use (SGR escape sequences).
enum ANSIStyle: String {
    case green = "\u{1B}[32m"
    case red = "\u{1B}[31m"
    case yellow = "\u{1B}[33m"
    case cyan = "\u{1B}[36m"
    case dim = "\u{1B}[2m"

    static let reset = "\u{1B}[0m"

    /// `text` in this style, or as it is when colour is off.
    func paint(_ text: String, when color: Bool) -> String {
        color ? rawValue + text + Self.reset : text
    }
}
