import RunnerResults
import RunnerVocabulary

/// What a result's job asks of the run it belongs to (`SuiteRun`): the lookups a redirect
/// needs, whether the run was interrupted, and where the verdict goes. One reference a job
/// instead of a closure for each (three allocations, and their releases, for every result).
protocol ResultJobOwner: AnyObject {
    /// Looks `host` up for the job's scenario through `source`, as its first population.
    func resolve(
        host: String, source: AddressSource, for job: ResultJob,
        completion: @escaping (Result<Resolution, TransferError>) -> Void)
    /// Asked before each event is handed to the machine.
    var isInterrupted: Bool { get }
    /// Called once, with the last attempt's result and the job, which tells what its machine
    /// captured and the lane for the flow steps after it.
    func finished(_ result: consuming ScenarioResult, job: ResultJob)
}
