import RunnerResults

/// A curl line's time limits, ` --connect-timeout A --max-time B`, kept for the last settings
/// written: a report's lines mostly share their settings (a plan's defaults), and writing a
/// `Duration` in seconds takes 128-bit arithmetic each time.
struct CurlTimeLimits {
    private var settings: ConnectionSettings?
    private var text: [UInt8] = []

    /// The options for `settings`, appended to `bytes`.
    mutating func append(_ settings: ConnectionSettings, to bytes: inout ByteBuffer) {
        if settings != self.settings {
            var written = ByteBuffer(capacity: 64)
            written.append(" --connect-timeout ")
            CurlCommand.seconds(min(settings.connectTimeout, settings.timeout), to: &written)
            written.append(" --max-time ")
            CurlCommand.seconds(settings.timeout, to: &written)
            text = written.array
            self.settings = settings
        }
        bytes.append(text)
    }
}
