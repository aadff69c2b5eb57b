/// Polls `condition` every 20 ms until it holds, for at most `deadline`: whether it came to hold.
///
/// The one way tests wait for something to happen; callers `#require` the result with a message
/// that says what never happened, so a wait fails instead of hanging.
public func eventually(within deadline: Duration = .seconds(20), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while true {
        if try condition() { return true }
        if clock.now >= end { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
