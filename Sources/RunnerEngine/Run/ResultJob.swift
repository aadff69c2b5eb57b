import Foundation
import RunnerPlan
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Performs what a `ResultStateMachine` asks for, on the engine's thread: transfers and probes
/// on the engine, lookups through the scenario's domain map, and the verdict to its owner.
/// All the deciding is in the machine.
final class ResultJob {
    private var machine: ResultStateMachine
    private let engine: TransferEngine
    private let clock: RunClock
    /// The run (held strongly: the run does not hold its jobs, the engine's completions do).
    private let owner: any ResultJobOwner
    /// Which of the owner's results this is: the scenario's index and the result's place.
    let scenarioIndex: Int
    let position: ResultPosition
    /// The scheduler whose slot the result holds until it is handed over.
    let scheduler: ScenarioScheduler

    init(
        machine: ResultStateMachine, engine: TransferEngine, clock: RunClock, owner: any ResultJobOwner,
        scenarioIndex: Int, position: ResultPosition, scheduler: ScenarioScheduler
    ) {
        self.machine = machine
        self.engine = engine
        self.clock = clock
        self.owner = owner
        self.scenarioIndex = scenarioIndex
        self.position = position
        self.scheduler = scheduler
    }

    /// The scenario this job runs, and the population a redirect is followed as (its result's
    /// first, as this machine without one): what a redirect's lookup needs.
    var scenario: Scenario { machine.planned.scenario }
    var redirectClients: [ClientPopulation] { Array(machine.planned.clients.prefix(1)) }

    /// The machine's `secret: true` captures. Both questions are asked of the stored machine
    /// through a pointer: asked of the property, a computed value of a large struct held by a
    /// class is asked of a copy of it (a retain and a release for each of its references,
    /// ~1.6k instructions a result).
    var capturedSecrets: [SecretValue] { withUnsafeMutablePointer(to: &machine) { $0.pointee.capturedSecrets } }

    /// The lane for the flow steps after this result; nil unless it passed.
    func laneForDependents() -> FlowLane? { withUnsafeMutablePointer(to: &machine) { $0.pointee.laneForDependents() } }

    func start() {
        let now = beforeEvent()
        perform(machine.start(now: now, date: clock.wall.now()))
    }

    /// Before each event: the machine learns of the run's interruption, when there is one;
    /// the event's time.
    private func beforeEvent() -> Duration {
        if owner.isInterrupted { machine.interrupt() }
        return clock.monotonic.reading
    }

    /// Performs the action the machine answered an event with. Each completion hands its
    /// value straight to the machine: a transfer's outcome is moved in, never captured again.
    private func perform(_ action: consuming ResultStateMachine.Action) {
        // Consumed: the finished result is moved to the owner, not copied out of the action.
        switch consume action {
        case .send(let spec):
            engine.submit(spec) { [self] outcome in
                let now = beforeEvent()
                perform(machine.transferFinished(outcome, now: now, date: clock.wall.now()))
            }
        case .probe(let spec):
            engine.submit(spec) { [self] outcome in
                let now = beforeEvent()
                perform(machine.probeFinished(outcome, now: now))
            }
        case .resolve(let host, let source):
            owner.resolve(host: host, source: source, for: self) { [self] answer in
                let now = beforeEvent()
                perform(machine.resolved(answer, now: now, date: clock.wall.now()))
            }
        case .finish(let result):
            owner.finished(result, job: self)
        case .wait:
            break
        }
    }
}
