import Foundation
import RunnerResults
import RunnerTransport
import RunnerVocabulary

/// Performs what a `ResultStateMachine` asks for, on the engine's thread: transfers and probes
/// on the engine, lookups through the scenario's domain map, and the verdict to `completion`.
/// All the deciding is in the machine.
final class ResultJob {
    typealias Resolve = (
        _ host: String, _ source: AddressSource, _ completion: @escaping (Result<Resolution, TransferError>) -> Void
    ) -> Void

    private var machine: ResultStateMachine
    private let engine: TransferEngine
    private let clock: RunClock
    private let resolve: Resolve
    private let isInterrupted: () -> Bool
    private let completion: (consuming ScenarioResult, ResultJob) -> Void

    /// - Parameters:
    ///   - resolve: the scenario's domain map or resolver, for the hosts redirects lead to.
    ///   - isInterrupted: asked before each event is handed to the machine.
    ///   - completion: called once, with the last attempt's result and this job, which tells
    ///     what its machine captured and the lane for the flow steps after it.
    init(
        machine: ResultStateMachine, engine: TransferEngine, clock: RunClock, resolve: @escaping Resolve,
        isInterrupted: @escaping () -> Bool, completion: @escaping (consuming ScenarioResult, ResultJob) -> Void
    ) {
        self.machine = machine
        self.engine = engine
        self.clock = clock
        self.resolve = resolve
        self.isInterrupted = isInterrupted
        self.completion = completion
    }

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
        if isInterrupted() { machine.interrupt() }
        return clock.monotonic.reading
    }

    /// Performs the action the machine answered an event with. Each completion hands its
    /// value straight to the machine: a transfer's outcome is moved in, never captured again.
    private func perform(_ action: consuming ResultStateMachine.Action) {
        // Consumed: the finished result is moved to `completion`, not copied out of the action.
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
            resolve(host, source) { [self] answer in
                let now = beforeEvent()
                perform(machine.resolved(answer, now: now, date: clock.wall.now()))
            }
        case .finish(let result):
            completion(result, self)
        case .wait:
            break
        }
    }
}
