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
    private let completion: (ScenarioResult, ResultStateMachine) -> Void

    /// - Parameters:
    ///   - resolve: the scenario's domain map or resolver, for the hosts redirects lead to.
    ///   - isInterrupted: asked before each event is handed to the machine.
    ///   - completion: called once, with the last attempt's result and the machine that decided
    ///     it (what it captured, the lane for the flow steps after it).
    init(
        machine: ResultStateMachine, engine: TransferEngine, clock: RunClock, resolve: @escaping Resolve,
        isInterrupted: @escaping () -> Bool, completion: @escaping (ScenarioResult, ResultStateMachine) -> Void
    ) {
        self.machine = machine
        self.engine = engine
        self.clock = clock
        self.resolve = resolve
        self.isInterrupted = isInterrupted
        self.completion = completion
    }

    func start() {
        deliver { machine, now in machine.start(now: now, date: clock.wall.now()) }
    }

    /// Hands one event to the machine (interrupted first, when the run is) and performs the
    /// action it answers with.
    private func deliver(_ event: (inout ResultStateMachine, _ now: Duration) -> ResultStateMachine.Action) {
        if isInterrupted() { machine.interrupt() }
        let action = event(&machine, clock.monotonic.reading)
        switch action {
        case .send(let spec):
            engine.submit(spec) { [self] outcome in
                deliver { machine, now in machine.transferFinished(outcome, now: now, date: clock.wall.now()) }
            }
        case .probe(let spec):
            engine.submit(spec) { [self] outcome in
                deliver { machine, now in machine.probeFinished(outcome, now: now) }
            }
        case .resolve(let host, let source):
            resolve(host, source) { [self] answer in
                deliver { machine, now in machine.resolved(answer, now: now, date: clock.wall.now()) }
            }
        case .finish(let result):
            completion(result, machine)
        case .wait:
            break
        }
    }
}
