/// What a `${env:NAME}` or `${secret:NAME}` whose variable is not set is.
public enum UnsetEnvironment: Sendable, Equatable {
    /// A plan error naming the variable: a run needs the value.
    case error
    /// A value not known (`runner check --no-env`, in a review's CI job without the secrets):
    /// the reference's syntax and place are still checked, and what the value would decide is
    /// reported as not checked, as a note, instead of as an error.
    case unknown
}
