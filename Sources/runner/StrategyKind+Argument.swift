import ArgumentParser
import RunnerVocabulary

/// `--strategy` of `runner app show` takes a strategy by its plan spelling.
extension StrategyKind: ExpressibleByArgument {}
