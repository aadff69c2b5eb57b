import Foundation
import RunnerPlan

/// The team's own plan (`--domains FILE`), from which `runner init` copies a domain map (with
/// the maps it falls back to and the client populations it is asked as) and apps (their file
/// paths rewritten relative to the new plan).
struct TeamPlanExcerpt {
    let path: String
    /// Where the new plan is: the apps' relative paths are rewritten for it.
    let planDirectory: URL

    init(path: String, planDirectory: URL) throws {
        guard FileManager.default.isReadableFile(atPath: path) else { throw InitFailure("\(path): cannot read the file (--domains)") }
        self.path = path
        self.planDirectory = planDirectory
    }

    /// The map `name`, every map its `fallback` chain names, and the clients it is asked as.
    func map(named name: String) throws -> (maps: [(name: String, value: YAMLValue)], clients: [(name: String, value: YAMLValue)]) {
        var maps: [(name: String, value: YAMLValue)] = []
        var clientNames: [String] = []
        var next: String? = name
        while let current = next, !maps.contains(where: { $0.name == current }) {
            guard let value = try excerpt(["domains", current]) else {
                let what = current == name ? "--map \(name)" : "the map '\(current)' that '\(name)' falls back to"
                throw InitFailure("\(path): no domain map '\(current)' under domains: (\(what))")
            }
            maps.append((current, value))
            let httpdns = Self.member("httpdns", of: value)
            next = httpdns.flatMap { Self.member("fallback", of: $0) }.flatMap(Self.scalarText).flatMap { $0 == "none" || $0 == "system" ? nil : $0 }
            for client in httpdns.flatMap({ Self.member("clients", of: $0) }).map(Self.scalarTexts) ?? [] where !clientNames.contains(client) {
                clientNames.append(client)
            }
        }
        if clientNames == ["all"] {
            guard case .mapping(let all, _)? = try excerpt(["clients"]) else { return (maps, []) }
            return (maps, all.map { ($0.key, $0.value) })
        }
        let clients = try clientNames.map { client -> (name: String, value: YAMLValue) in
            guard let value = try excerpt(["clients", client]) else {
                throw InitFailure("\(path): no client '\(client)' under clients: (the map '\(name)' is asked as it)")
            }
            return (client, value)
        }
        return (maps, clients)
    }

    /// The app `name`, its trust files' paths relative to the new plan.
    func app(named name: String) throws -> YAMLValue {
        guard let value = try excerpt(["apps", name]) else { throw InitFailure("\(path): no app '\(name)' under apps: (--app \(name))") }
        return rebased(value, depth: 0)
    }

    private func excerpt(_ keyPath: [String]) throws -> YAMLValue? {
        do {
            return try YAMLExcerpt.value(at: keyPath, inFile: path)
        } catch {
            throw InitFailure(error.rendered)
        }
    }

    /// The keys of an app that name files, relative to the plan that holds them.
    private static let pathKeys: Set<String> = ["network_security_config", "raw", "info_plist"]

    private func rebased(_ value: YAMLValue, depth: Int) -> YAMLValue {
        guard case .mapping(let entries, let style) = value else { return value }
        return .mapping(entries.map { entry in
            var entry = entry
            if depth == 1, Self.pathKeys.contains(entry.key), let text = Self.scalarText(entry.value), !text.contains("${"), !text.hasPrefix("/") {
                let source = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(text).standardizedFileURL
                entry.value = .string(RelativePath.from(planDirectory, to: source))
            } else {
                entry.value = rebased(entry.value, depth: depth + 1)
            }
            return entry
        }, style: style)
    }

    private static func member(_ key: String, of value: YAMLValue) -> YAMLValue? {
        guard case .mapping(let entries, _) = value else { return nil }
        return entries.first { $0.key == key }?.value
    }

    private static func scalarText(_ value: YAMLValue) -> String? {
        switch value {
        case .string(let text), .plain(let text): text
        case .integer, .boolean, .sequence, .mapping: nil
        }
    }

    private static func scalarTexts(_ value: YAMLValue) -> [String] {
        if case .sequence(let items, _) = value { return items.compactMap { scalarText($0.value) } }
        return scalarText(value).map { [$0] } ?? []
    }
}
