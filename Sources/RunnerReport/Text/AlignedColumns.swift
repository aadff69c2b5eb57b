import Foundation

/// Rows of cells as `runner resolve` and `runner app show` print them: each column as wide as
/// its widest cell, two spaces between, the last column unpadded, the lines indented.
enum AlignedColumns {
    static func lines(header: [String], rows: [[String]], indent: String = "  ") -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            return indent + cells.joined(separator: "  ")
        }
    }
}
