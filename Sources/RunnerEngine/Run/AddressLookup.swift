import RunnerPlan
import RunnerVocabulary

/// The addresses a host needs before a scenario's results can be planned or a redirect followed:
/// its domain map's answer, its resolver's (as if through the `system` map), or both at once;
/// under `expect.dns`, a resolver's answer checked against each named map's answer for the same
/// host before it counts. A map asked as user populations (`clients:`) is asked once per client,
/// and its answer is theirs together (`Resolution.byClient`). A value: `start()` and each `answered` return what to ask next, and
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

    /// One lookup to make: `host` through the domain map named `map`, as `client` (nil: as
    /// this machine).
    struct Question: Equatable {
        var purpose: Purpose
        var host: String
        var map: String
        var client: ClientPopulation? = nil
        /// The client's place among the lookup's clients (its answer's slot).
        var clientIndex = 0
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
    /// Which sources are asked (two flags, not a list made for every result's lookup).
    private let asksMap: Bool
    private let asksResolver: Bool
    /// `expect.dns.within`: the maps a resolver's answer must stay within; nil: not checked.
    private let within: [String]?
    /// Each source's answer once it counts (checked, under `expect.dns`); two slots rather than a
    /// dictionary: every result's lookup passes here.
    private var mapAnswer: Answer?
    private var resolverAnswer: Answer?
    /// A resolver's answer under check, and the named maps' answers so far (by slot).
    private var checking: [AddressSource: (resolution: Resolution, answers: [Answer?])] = [:]
    /// The populations the domain map is asked as (empty: as this machine), and each one's
    /// answer so far, in the same order.
    private let clients: [ClientPopulation]
    private var clientAnswers: [Answer?]
    /// Clients whose answer has not come yet.
    private var clientsWaiting: Int

    /// `host` as `scenario` looks it up, through its domain map (as each of `clients`, when the
    /// map asks as user populations), its resolver, or both.
    init(host: String, for scenario: Scenario, map: Bool, resolver: Bool, clients: [ClientPopulation] = []) {
        self.host = host
        domainMap = scenario.domainMap
        asksMap = map
        asksResolver = resolver
        within = scenario.expect.dns?.within
        self.clients = map ? clients : []
        clientAnswers = Array(repeating: nil, count: self.clients.count)
        clientsWaiting = self.clients.count
    }

    /// The first questions (both sources at once, the map as each client), or `done` when
    /// neither is needed.
    func start() -> Next {
        guard asksMap || asksResolver else { return .done(map: nil, resolver: nil) }
        // One list at its size: every result's lookup passes here.
        var questions: [Question] = []
        questions.reserveCapacity((asksMap ? max(1, clients.count) : 0) + (asksResolver ? 1 : 0))
        if asksMap {
            let question = Question(purpose: .answer(.domainMap), host: host, map: mapName(for: .domainMap))
            if clients.isEmpty {
                questions.append(question)
            } else {
                for (index, client) in clients.enumerated() {
                    var asked = question
                    asked.client = client
                    asked.clientIndex = index
                    questions.append(asked)
                }
            }
        }
        if asksResolver {
            questions.append(Question(purpose: .answer(.resolver), host: host, map: mapName(for: .resolver)))
        }
        return .ask(questions)
    }

    mutating func answered(_ question: Question, _ answer: Answer) -> Next {
        switch question.purpose {
        case .answer(.domainMap) where !clients.isEmpty:
            // Each answer once per slot: an answer again (a driver bug) changes nothing.
            guard clientAnswers.indices.contains(question.clientIndex), clientAnswers[question.clientIndex] == nil else { return .wait }
            clientAnswers[question.clientIndex] = answer
            clientsWaiting -= 1
            guard clientsWaiting == 0 else { return .wait }
            var answers: [ClientResolution] = []
            answers.reserveCapacity(clients.count)
            for (client, answer) in zip(clients, clientAnswers) {
                if let answer { answers.append(ClientResolution(client: client, answer: answer)) }
            }
            return settle(.domainMap, .success(Resolution(clients: answers)))
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
        // Asked by pattern, not `== nil`: comparing an optional answer with nil copied it.
        if asksMap, case .none = mapAnswer { return .wait }
        if asksResolver, case .none = resolverAnswer { return .wait }
        // Moved out, not copied: the lookup is over once every answer is in.
        return .done(map: mapAnswer.take(), resolver: resolverAnswer.take())
    }

    private func mapName(for source: AddressSource) -> String {
        switch source {
        case .domainMap: domainMap
        case .resolver: systemDomainMapName
        }
    }
}
