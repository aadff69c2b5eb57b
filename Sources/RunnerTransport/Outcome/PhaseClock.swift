import RunnerVocabulary

/// libcurl's cumulative phase clock for one transfer (the `CURLINFO_*_TIME_T` values, in
/// microseconds since the transfer started; 0 = that point was never reached).
struct PhaseClock: Equatable, Sendable {
    var nameLookup: Int64 = 0
    var connect: Int64 = 0
    var appConnect: Int64 = 0
    var startTransfer: Int64 = 0
    var total: Int64 = 0

    /// Each phase's own duration: resolve = name lookup, connect = TCP connect
    /// after it, tls = the handshake after that (nil without one: plain http, or a reused
    /// connection), first byte and total counted from the start.
    func phases(reusedConnection: Bool) -> Timings {
        func seconds(_ microseconds: Int64) -> Duration { .microseconds(microseconds) }
        let reachedConnect = connect > 0
        return Timings(
            resolve: nameLookup > 0 || reachedConnect ? seconds(nameLookup) : nil,
            connect: reachedConnect ? seconds(max(0, connect - nameLookup)) : nil,
            tls: appConnect > 0 && !reusedConnection ? seconds(max(0, appConnect - max(connect, nameLookup))) : nil,
            firstByte: startTransfer > 0 ? seconds(startTransfer) : nil,
            total: total > 0 ? seconds(total) : nil)
    }
}
