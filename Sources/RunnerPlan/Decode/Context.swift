/// Where in the plan a value sits, for messages (`in request of scenario 'login'`).
///
/// Built per scenario, so it stays cheap: the words are only assembled when an error is reported.
struct Context: Sendable, CustomStringConvertible {
    enum Owner: Sendable {
        case topLevel
        case defaults
        case vars
        case domains
        case domainMap(String)
        /// `'login'` when the scenario's name is known, `#3` otherwise.
        case scenario(String)
    }

    var owner: Owner
    /// A section inside the owner (`request`, `expect.body`): static text, no reference counting.
    var part: StaticString?
    /// A name qualifying the part: `the matcher for header` + `Accept`.
    var partName: String?

    init(_ owner: Owner, part: StaticString? = nil, partName: String? = nil) {
        self.owner = owner
        self.part = part
        self.partName = partName
    }

    func part(_ name: StaticString) -> Context { Context(owner, part: name) }

    /// `in the matcher for header 'Accept' of …`, assembled only when shown.
    func part(_ name: StaticString, named partName: String) -> Context { Context(owner, part: name, partName: partName) }

    var description: String {
        let ownerText: String
        switch owner {
        case .topLevel: return part.map { "in \($0)" } ?? "at top level"
        case .defaults: ownerText = "defaults"
        case .vars: ownerText = "vars"
        case .domains: ownerText = "domains"
        case .domainMap(let name): ownerText = "domain map '\(name)'"
        case .scenario(let label): ownerText = "scenario \(label)"
        }
        guard let part else { return "in \(ownerText)" }
        if let partName { return "in \(part) '\(partName)' of \(ownerText)" }
        return "in \(part) of \(ownerText)"
    }
}

/// What a value is for, in `expected …` messages: `'timeout' in defaults`.
///
/// Made for every value read, so it only keeps its parts; words are joined on error.
struct Site: Sendable, CustomStringConvertible {
    private enum Subject: Sendable {
        case key(String)
        case text(String)
        case named(String, String)
    }

    private var subject: Subject
    var context: Context

    init(key: String, _ context: Context) {
        subject = .key(key)
        self.context = context
    }

    /// `an item of 'tags'`, `header 'Accept'`: written as given.
    init(subject: String, _ context: Context) {
        self.subject = .text(subject)
        self.context = context
    }

    /// `header 'Accept'`: a kind of thing and its name.
    init(kind: String, name: String, _ context: Context) {
        subject = .named(kind, name)
        self.context = context
    }

    var description: String {
        switch subject {
        case .key(let key): return "'\(key)' \(context)"
        case .text(let text): return "\(text) \(context)"
        case .named(let kind, let name): return "\(kind) '\(name)' \(context)"
        }
    }
}
