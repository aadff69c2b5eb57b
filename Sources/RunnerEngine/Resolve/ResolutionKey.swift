import RunnerPlan
import RunnerResults

/// What a resolver keeps an answer under: whose answer it is (`AnswerKey`: plan, map, host,
/// client) and how the question was put (the address family asked for, and the resolver for a
/// map whose answer may come from one). The key of every `ResolutionCache`: a run's and `serve`'s
/// memory across cycles.
struct ResolutionKey: Hashable {
    var answer: AnswerKey
    /// The family asked for (`any` for a list, whose answer holds both; and for getaddrinfo,
    /// which asks both at once).
    var family: IPVersionPreference
    /// The resolver asked, for a map whose answer may come from it (`system`, a `fallback:
    /// system` chain); nil for every other map, whose answer is the same for any resolver.
    var resolver: ResolverChoice? = nil
}
