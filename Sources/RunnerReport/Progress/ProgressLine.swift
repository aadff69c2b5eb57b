import Foundation
import RunnerResults

/// The live progress line's text, e.g.
/// `[1234/5000] 1200 passed, 30 failed, 4 errors · 412/s · 9s left` (`~5000` while the total is
/// an estimate).
///
/// Plain ASCII but for the separators, each one column wide, so the line can be cut to the
/// terminal's width by characters: a line that wrapped could not be redrawn in place.
public struct ProgressLine: Sendable, Equatable {
    public var snapshot: ProgressCounter.Snapshot
    /// The time since the run started.
    public var elapsed: Duration

    public init(snapshot: ProgressCounter.Snapshot, elapsed: Duration) {
        self.snapshot = snapshot
        self.elapsed = elapsed
    }

    /// The line cut to `width` columns (one is kept free: a terminal that wraps at its last
    /// column would move the cursor), coloured when `color` says so.
    public func text(width: Int, color: Bool) -> String {
        let counts = snapshot.counts
        let done = counts.total
        let expected = max(snapshot.expected, done)
        var pieces: [(text: String, style: ANSIStyle?)] = [
            ("[\(done)/\(snapshot.estimated ? "~" : "")\(expected)] ", nil),
            ("\(counts.passed) passed", counts.passed > 0 ? ANSIStyle.green : nil),
            (", ", nil),
            ("\(counts.failed) failed", counts.failed > 0 ? ANSIStyle.red : nil),
            (", ", nil),
            ("\(counts.errors) errors", counts.errors > 0 ? ANSIStyle.red : nil),
        ]
        if counts.skipped > 0 { pieces += [(", ", nil), ("\(counts.skipped) skipped", ANSIStyle.yellow)] }
        if let rate {
            pieces.append((" · \(Self.rateText(rate))/s", nil))
            if done < expected { pieces.append((" · \(Self.durationText(Double(expected - done) / rate)) left", nil)) }
        }
        var remaining = max(0, width - 1)
        var line = ""
        for piece in pieces where remaining > 0 {
            let shown = piece.text.count <= remaining ? piece.text : String(piece.text.prefix(remaining))
            remaining -= shown.count
            line += piece.style?.paint(shown, when: color) ?? shown
        }
        return line
    }

    /// Results a second so far; nil until there is something to measure.
    var rate: Double? {
        let done = snapshot.counts.total
        guard done > 0, elapsed > .milliseconds(50) else { return nil }
        return Double(done) / elapsed.inSeconds
    }

    static func rateText(_ rate: Double) -> String {
        rate >= 10 ? String(Int(rate.rounded())) : String(format: "%.1f", rate)
    }

    /// `9s`, `3m20s`, `1h02m`.
    static func durationText(_ seconds: Double) -> String {
        let total = Int(min(seconds, 359_999).rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\(total / 60)m\(Self.twoDigits(total % 60))s" }
        return "\(total / 3600)h\(Self.twoDigits(total % 3600 / 60))m"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
