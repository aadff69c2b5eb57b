import RunnerResults
import RunnerVocabulary

/// Where a result's time went, the phases of all its hops added up: resolve, connect, TLS,
/// waiting for the first byte, transfer. Drawn as one bar of five segments, each as wide as its
/// share of the result's time (an inline SVG: rectangles sized by attributes, so the page needs
/// no `style` attribute its Content-Security-Policy would have to allow).
struct HTMLPhaseBar: Equatable {
    var resolve = 0.0
    var connect = 0.0
    var tls = 0.0
    /// After the handshake until the first response byte: the server's own time.
    var firstByte = 0.0
    /// From the first byte to the end of the hop.
    var transfer = 0.0

    /// The phases in the bar's order, with the names the legend and the tooltip use.
    var phases: [(name: StaticString, seconds: Double)] {
        [("resolve", resolve), ("connect", connect), ("tls", tls), ("first byte", firstByte), ("transfer", transfer)]
    }

    var total: Double { resolve + connect + tls + firstByte + transfer }

    /// Each hop's `Timings` are its own phase durations, but first byte and total are counted
    /// on libcurl's clock from the start of the transfer (see `PhaseClock`): the wait and the
    /// transfer are what is left after the phases before them. A pinned hop's resolve is the
    /// runner's own lookup of the IP (HTTPDNS, a map), made before that clock started, so it is
    /// not taken off (libcurl's own lookup of an IP it was handed is a few microseconds).
    init(_ hops: [HopEvidence]) {
        for hop in hops {
            let timings = hop.timings
            // Seconds: the bar is drawn in proportions.
            let resolve = Self.clamped(timings.resolve?.inSeconds)
            let connect = Self.clamped(timings.connect?.inSeconds)
            let tls = Self.clamped(timings.tls?.inSeconds)
            self.resolve += resolve
            self.connect += connect
            self.tls += tls
            let beforeRequest = (hop.connection.pinnedIP == nil ? resolve : 0) + connect + tls
            if let first = timings.firstByte?.inSeconds {
                firstByte += Self.clamped(first - beforeRequest)
                if let total = timings.total?.inSeconds { transfer += Self.clamped(total - first) }
            } else if let total = timings.total?.inSeconds {
                // No response came: the rest of the hop went to the phase that did not complete
                // (libcurl reports no connect time for a connection whose handshake failed, but
                // the address it connected to).
                let rest = Self.clamped(total - beforeRequest)
                if timings.connect == nil && hop.connectedIP == nil {
                    self.connect += rest
                } else if timings.tls == nil, URLScheme(ofURL: hop.connection.urlSent) == .https, hop.newConnection != false {
                    self.tls += rest
                } else {
                    firstByte += rest
                }
            }
        }
    }

    private static func clamped(_ seconds: Double?) -> Double {
        guard let seconds, seconds.isFinite, seconds > 0 else { return 0 }
        return seconds
    }

    /// The bar's width in user units: a segment's width is its share of it.
    static let width = 1000

    /// Each phase's segment width, in phase order, adding up to `width`: a phase that took any
    /// time gets at least one unit, so a short TLS handshake still shows.
    var segmentWidths: [Int] {
        let total = self.total
        guard total > 0 else { return phases.map { _ in 0 } }
        var widths = phases.map { $0.seconds > 0 ? max(1, Int(($0.seconds / total * Double(Self.width)).rounded(.down))) : 0 }
        // What rounding left over (or took too much) goes to the longest segment.
        if let longest = widths.indices.max(by: { widths[$0] < widths[$1] }) {
            widths[longest] += Self.width - widths.reduce(0, +)
        }
        return widths
    }

    /// `<svg class="phases">…</svg>` with a `<title>` that names every phase's milliseconds; a
    /// result without timings (nothing was sent) gets no bar.
    func write(into html: inout HTMLWriter) {
        guard total > 0 else { return }
        html.raw("<svg class=\"phases\" viewBox=\"0 0 1000 10\" preserveAspectRatio=\"none\" role=\"img\"><title>")
        for (index, phase) in phases.enumerated() {
            if index > 0 { html.raw(", ") }
            html.raw(phase.name)
            html.raw(" ")
            html.milliseconds(.seconds(phase.seconds))
            html.raw(" ms")
        }
        html.raw("</title>")
        var x = 0
        for (index, width) in segmentWidths.enumerated() where width > 0 {
            html.raw("<rect class=\"p")
            html.number(index)
            html.raw("\" x=\"")
            html.number(x)
            html.raw("\" width=\"")
            html.number(width)
            html.raw("\" height=\"10\"/>")
            x += width
        }
        html.raw("</svg>")
    }
}
