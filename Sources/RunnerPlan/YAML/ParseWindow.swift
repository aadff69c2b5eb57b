/// The part of a plan file one parse reads, and where its lines stand in the file.
///
/// The whole file by default. A piece of the scenario list starts further down and sits
/// inside the top-level mapping; the top level read without the list has a gap of lines.
struct ParseWindow {
    /// Bytes of the source to read; nil for all of them.
    var bytes: Range<Int>?
    /// The file line (counted from 0) of the window's first line.
    var firstLine = 0
    /// Window lines from this one on (counted from 0) stand `gapLines` further down in the file.
    var gapAt = Int.max
    var gapLines = 0
    /// Collections open around these bytes in the plan, for the nesting limit.
    var depth = 0

    /// A position counted from 0 within the window, as a 1-based position in the plan file.
    /// Inlined: asked for every event of a plan.
    @inline(__always)
    func fileMark(line: Int, column: Int) -> YAMLMark {
        YAMLMark(line: firstLine + (line >= gapAt ? line + gapLines : line) + 1, column: column + 1)
    }
}
