import RunnerPlan
import RunnerVocabulary

/// The addresses a host needs before a scenario's results can be planned or a redirect followed:
/// its domain map's answer, its resolver's (as if through the `system` map), or both at once;
/// under `expect.dns`, a resolver's answer checked against each named map's answer for the same
/// host before it counts. A value: `start()` and each `answered` return what to ask next, and
/// the pair of answers once every one is in. `SuiteRun` asks `DomainResolver`;
/// `AddressLookupTests` drive it with made-up answers.
struct AddressLookup {
    typealias Answer = Result<Resolution, TransferError>

    /// Why a question is asked: for a source's own answer, or for the check of that answer
    /// against the `slot`th map of `expect.dns.within`.
    enum Purpose: Hashable {
        case answer(AddressSource)
        case check(AddressSource, slot: Int)
    }

    /// One lookup to make: `host` through the domain map named `map`.
    struct Question: Equatable {
        var purpose: Purpose
        var host: String
        var map: String
    }

    enum Next {
        /// Ask each of these; their answers come back through `answered`.
        case ask([Question])
        /// Answers still to come: nothing to do.
        case wait
        /// Every answer is in: the map's and the resolver's (nil for the one not asked).
        case done(map: Answer?, resolver: Answer?)
    }

    private let host: String
    private let domainMap: String
    private let sources: [AddressSource]
    /// `expect.dns.within`: the maps a resolver's answer must stay within; nil: not checked.
    private let within: [String]?
    /// Each source's answer once it counts (checked, under `expect.dns`); two slots rather than a
    /// dictionary: every result's lookup passes here.
    private var mapAnswer: Answer?
    private var resolverAnswer: Answer?
    /// A resolver's answer under check, and the named maps' answers so far (by slot).
    private var checking: [AddressSource: (resolution: Resolution, answers: [Answer?])] = [:]

    /// `host` as `scenario` looks it up, through its domain map, its resolver, or both.
    init(host: String, for scenario: Scenario, map: Bool, resolver: Bool) {
        self.host = host
        domainMap = scenario.domainMap
        sources = (map ? [.domainMap] : []) + (resolver ? [.resolver] : [])
        within = scenario.expect.dns?.within
    }

    /// The first questions (both sources at once), or `done` when neither is needed.
    func start() -> Next {
        guard !sources.isEmpty else { return .done(map: nil, resolver: nil) }
        return .ask(sources.map { Question(purpose: .answer($0), host: host, map: mapName(for: $0)) })
    }

    mutating func answered(_ question: Question, _ answer: Answer) -> Next {
        switch question.purpose {
        case .answer(let source):
            // An answer from a resolver the runner asked carries its DNS evidence: under
            // `expect.dns` it is checked against the named maps, for the host the resolver was asked.
            if let within, case .success(let resolution) = answer, let asked = resolution.dns?.host {
                guard !within.isEmpty else {
                    return settle(source, DNSVerdict.check(resolution, against: [], answers: []))
                }
                checking[source] = (resolution, Array(repeating: nil, count: within.count))
                return .ask(within.enumerated().map { Question(purpose: .check(source, slot: $0), host: asked, map: $1) })
            }
            return settle(source, answer)
        case .check(let source, let slot):
            guard var check = checking[source], let within else { return .wait }
            check.answers[slot] = answer
            guard check.answers.allSatisfy({ $0 != nil }) else {
                checking[source] = check
                return .wait
            }
            checking[source] = nil
            return settle(source, DNSVerdict.check(check.resolution, against: within, answers: check.answers.compactMap { $0 }))
        }
    }

    /// Records `source`'s answer; done when every source asked has one.
    private mutating func settle(_ source: AddressSource, _ answer: Answer) -> Next {
        switch source {
        case .domainMap: mapAnswer = answer
        case .resolver: resolverAnswer = answer
        }
        let waitingForMap = sources.contains(.domainMap) && mapAnswer == nil
        let waitingForResolver = sources.contains(.resolver) && resolverAnswer == nil
        guard !waitingForMap && !waitingForResolver else { return .wait }
        return .done(map: mapAnswer, resolver: resolverAnswer)
    }

    private func mapName(for source: AddressSource) -> String {
        switch source {
        case .domainMap: domainMap
        case .resolver: systemDomainMapName
        }
    }
}
