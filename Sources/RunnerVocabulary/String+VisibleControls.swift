extension String {
    /// The text with its control characters (C0 but tab, DEL, C1, the line and paragraph
    /// separators) written as `\u{…}`: a file's or a plan's text quoted back in a message must
    /// show as text, not drive the terminal (found by fuzzing).
    public var withVisibleControls: String {
        if utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x00...0x08, 0x0A...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
