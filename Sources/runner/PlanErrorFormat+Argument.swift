import ArgumentParser
import RunnerPlan

/// `--format text|json|github|gitlab`: ArgumentParser lists the words and refuses any other.
extension PlanErrorFormat: ExpressibleByArgument {}
