extension YAMLWriter {
    /// `comments` as whole lines `# text` at `indent`. A comment may carry text from outside (a
    /// URL from a capture): a line break in it becomes a space, so it cannot end the comment
    /// and start YAML of its own; any other character a YAML file may not hold (a control
    /// character, which libyaml would refuse the whole file for) becomes a space too.
    static func writeComments(_ comments: [String], indent: Int, into output: inout String) {
        for comment in comments {
            var line = String(repeating: " ", count: indent) + "#"
            if !comment.isEmpty { line += " " }
            for scalar in comment.unicodeScalars {
                let kept = isPrintable(scalar) && !isLineBreak(scalar)
                line.unicodeScalars.append(kept ? scalar : " ")
            }
            output += line + "\n"
        }
    }
}
