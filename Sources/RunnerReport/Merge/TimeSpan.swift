import Foundation

/// From the earliest start to the latest end of several parts run side by side.
struct TimeSpan {
    var start: Date
    var duration: Duration

    init(starts: [Date], durations: [Duration]) {
        start = starts.min() ?? Date(timeIntervalSince1970: 0)
        let end = zip(starts, durations).map { $0.addingTimeInterval($1.inSeconds) }.max() ?? start
        duration = .seconds(end.timeIntervalSince(start))
    }
}
