import RunnerResults
import RunnerVocabulary

extension HopEvidence {
    /// A hop as the fixtures write it: its connection's URL, `Host`, SNI and pin under
    /// `strategy`, trusting the system store.
    init(
        method: String, originalURL: String, urlSent: String, hostHeader: String, sni: String?, pinnedIP: String?,
        strategy: StrategyKind, timings: Timings = Timings()
    ) {
        self.init(
            method: method, originalURL: originalURL,
            connection: HopConnection(
                strategy: strategy, urlSent: urlSent, hostHeader: hostHeader,
                setsHostHeader: strategy == .headerOnly || strategy == .trustOverride, sni: sni, pinnedIP: pinnedIP),
            timings: timings)
    }
}
