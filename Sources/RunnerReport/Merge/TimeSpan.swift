import Foundation

/// From the earliest start to the latest end of several parts run side by side.
struct TimeSpan {
    var start: Date
    /// Seconds.
    var duration: Double

    init(starts: [Date], durations: [Double]) {
        start = starts.min() ?? Date(timeIntervalSince1970: 0)
        let end = zip(starts, durations).map { $0.addingTimeInterval($1) }.max() ?? start
        duration = end.timeIntervalSince(start)
    }
}
