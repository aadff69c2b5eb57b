import RunnerPlan
import RunnerVocabulary

@testable import RunnerEngine

/// A `DomainResolver`'s answer sources as a script, with no socket: what each HTTPDNS service
/// and resolver answers, how each ranking connect ends, and every question asked. A question
/// with no scripted answer is held until the test gives one (`answer(_:with:)`): a slow service.
/// Everything runs on the test's thread, as the engine's would.
final class ScriptedAnswerSources {
    typealias Answer = Result<Resolution, TransferError>

    /// What each question is answered, by its text (`service MAP HOST`, then ` as CLIENT` and
    /// ` ip_version 4|6` when asked so; `resolver RESOLVER HOST`); a question not here is held.
    var answers: [String: Answer] = [:]
    /// Every question asked, in order.
    private(set) var asked: [String] = []
    /// The questions held, each with whoever waits for its answer.
    private var held: [String: [(Answer) -> Void]] = [:]
    /// The cycle's ranking connects, made by script: each (address, port) ends as `connects`
    /// says by `ADDRESS:PORT`, or refused; `probes.connectsMade` counts them.
    let probes: ConnectProbeCycle

    init(connects outcomes: [String: ConnectOutcome] = [:]) {
        probes = ConnectProbeCycle { _, targets, cache in
            for target in targets {
                cache.countConnect()
                cache.record(outcomes[target.description] ?? .failed(ConnectFailure(code: 111, reason: "Connection refused")), for: target)
            }
        }
    }

    var sources: AnswerSources {
        AnswerSources(
            service: { [self] lookup, completion in
                let family = lookup.ipVersion == .any ? "" : " ip_version \(lookup.ipVersion.rawValue)"
                ask("service \(lookup.mapName) \(lookup.host)" + (lookup.client.map { " as \($0.name)" } ?? "") + family, completion)
            },
            resolver: { [self] host, resolver, _, _, completion in ask("resolver \(resolver) \(host)", completion) },
            connects: { [probes] addresses, port, probe, completion in
                completion(.success(probes.measure(addresses, port: port, probe: probe)))
            })
    }

    /// Gives the held `question` its answer: each of its askers gets it.
    func answer(_ question: String, with answer: Answer) {
        let waiting = held.removeValue(forKey: question) ?? []
        for completion in waiting { completion(answer) }
    }

    /// Questions asked and not answered yet.
    var waiting: [String] { held.keys.sorted() }

    private func ask(_ question: String, _ completion: @escaping (Answer) -> Void) {
        asked.append(question)
        if let answer = answers[question] {
            completion(answer)
        } else {
            held[question, default: []].append(completion)
        }
    }
}
