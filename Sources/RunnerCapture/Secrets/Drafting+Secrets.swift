import Foundation
import RunnerPlan
import RunnerVocabulary

extension Drafting {
    /// Every secret of the request becomes `${secret:NAME}`: the credential headers, fields
    /// named as secrets (query, form, multipart, top-level JSON), and any JWT-shaped value.
    mutating func applySecrets(to fields: inout RequestFields, host: String, scenario: String) {
        if var query = fields.query {
            for index in query.indices {
                guard let raw = query[index].value?.literal, !raw.isEmpty else { continue }
                let name = CapturedURL.decoded(query[index].name)
                guard SecretField.isSecret(name: name) else { continue }
                let encoded = raw.contains("%") || raw.contains("+")
                let secret = secrets.name(
                    host: host, field: name, value: raw, use: "query parameter \(name) of '\(scenario)'",
                    form: encoded ? "as the URL carries it, percent-encoded" : nil)
                query[index].value = PlanText(pieces: [.secret(secret)])
            }
            fields.query = query
        }
        for index in fields.headers.indices {
            let header = fields.headers[index]
            guard SecretField.isSecretHeader(header.name), let value = header.value.literal, !value.isEmpty else { continue }
            let secret = secrets.name(host: host, field: header.name, value: value, use: "header \(header.name) of '\(scenario)'")
            fields.headers[index].value = PlanText(pieces: [.secret(secret)])
        }
        if let bytes = fields.bodyBytes, fields.bodyText != nil {
            secretFieldsOfBody(bytes, fields: &fields, host: host, scenario: scenario)
        }
        // Any JWT left, wherever it is.
        for index in fields.pathSegments.indices {
            replaceTokens(in: &fields.pathSegments[index], host: host, field: "url", use: "the URL's path of '\(scenario)'")
        }
        if var query = fields.query {
            for index in query.indices where query[index].value != nil {
                let name = CapturedURL.decoded(query[index].name)
                replaceTokens(in: &query[index].value!, host: host, field: name, use: "query parameter \(name) of '\(scenario)'")
            }
            fields.query = query
        }
        for index in fields.headers.indices {
            let name = fields.headers[index].name
            replaceTokens(in: &fields.headers[index].value, host: host, field: name, use: "header \(name) of '\(scenario)'")
        }
        if fields.bodyText != nil {
            replaceTokens(in: &fields.bodyText!, host: host, field: "body", use: "the body of '\(scenario)'")
        }
    }

    private mutating func replaceTokens(in text: inout PlanText, host: String, field: String, use: String) {
        for piece in text.pieces {
            guard case .literal(let literal) = piece else { continue }
            for token in JWTShape.tokens(in: literal) {
                let secret = secrets.existingName(for: token, use: use)
                    ?? secrets.name(host: host, field: field, value: token, use: use)
                text.replace(token, with: .secret(secret))
            }
        }
    }

    /// Fields of a JSON object, a form or a multipart body whose names say they are secrets.
    private mutating func secretFieldsOfBody(_ bytes: Data, fields: inout RequestFields, host: String, scenario: String) {
        guard var body = fields.bodyText else { return }
        let contentType = fields.headers.first { $0.name.lowercased() == "content-type" }?.value.literal?.lowercased() ?? ""
        if let document = JSONDocument(parsing: bytes), case .object(let members) = document.root {
            for key in members.keys.sorted() where SecretField.isSecret(name: key) {
                guard case .string(let value)? = members[key], !value.isEmpty, let quoted = Self.jsonQuoted(value) else { continue }
                let secret = secrets.name(host: host, field: key, value: value, use: "JSON field \(key) of '\(scenario)'")
                body.replace(quoted, with: [.literal("\""), .secret(secret), .literal("\"")])
            }
        } else if contentType.contains("multipart/form-data"), let boundary = RequestBody.boundary(in: contentType) {
            for part in MultipartParts.textParts(of: body.literal ?? "", boundary: boundary) where SecretField.isSecret(name: part.name) {
                guard !part.content.isEmpty else { continue }
                let secret = secrets.name(host: host, field: part.name, value: part.content, use: "form field \(part.name) of '\(scenario)'")
                body.replace(part.framed, with: [.literal(part.before), .secret(secret), .literal(part.after)])
            }
        } else if contentType.contains("x-www-form-urlencoded") || contentType.isEmpty, let text = body.literal, text.contains("=") {
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[1].isEmpty else { continue }
                let name = CapturedURL.decoded(String(parts[0]))
                guard SecretField.isSecret(name: name) else { continue }
                let raw = String(parts[1])
                let encoded = raw.contains("%") || raw.contains("+")
                let secret = secrets.name(
                    host: host, field: name, value: raw, use: "form field \(name) of '\(scenario)'",
                    form: encoded ? "as the form carries it, percent-encoded" : nil)
                body.replace("\(parts[0])=\(raw)", with: [.literal("\(parts[0])="), .secret(secret)])
            }
        }
        fields.bodyText = body
    }

    /// `"value"` as JSON writes a string (the form found in the body's text).
    static func jsonQuoted(_ value: String) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes]),
            let text = String(data: data, encoding: .utf8), text.hasPrefix("["), text.hasSuffix("]")
        else { return nil }
        return String(text.dropFirst().dropLast())
    }

    // MARK: The last look

    /// Shorter values recur by chance (a password `json` in every `application/json`).
    static let shortestSecretSoughtElsewhere = 6

    /// A secret's value found anywhere else in the plan (another field, another scenario, an
    /// encoded form) becomes its reference too; a binary body holding one cannot be written,
    /// so its scenario (and those after it) is dropped with a note.
    mutating func removeSecretsLeftInClear() {
        var values: [(value: String, name: String)] = []
        for secret in secrets.secrets where secret.value.count >= Self.shortestSecretSoughtElsewhere {
            for form in [secret.value] + PercentEncoding.forms(of: secret.value) + [Self.jsonQuoted(secret.value).map { String($0.dropFirst().dropLast()) }].compactMap({ $0 })
            where !values.contains(where: { $0.value == form }) {
                values.append((form, secret.name))
            }
        }
        values.sort { $0.value.count > $1.value.count }
        var dropped: Set<String> = []
        for index in scenarios.indices {
            for (value, name) in values {
                scenarios[index].url.replace(value, with: .secret(name))
                for header in scenarios[index].headers.indices {
                    scenarios[index].headers[header].value.replace(value, with: .secret(name))
                }
                switch scenarios[index].body {
                case .text(var text)?:
                    text.replace(value, with: .secret(name))
                    scenarios[index].body = .text(text)
                case .file(_, let bytes)?, .base64(let bytes)?:
                    if bytes.range(of: Data(value.utf8)) != nil { dropped.insert(scenarios[index].name) }
                case nil:
                    break
                }
            }
        }
        for name in scenarios.map(\.name) where dropped.contains(name) {
            refused[name] = "a secret inside a binary body, which a plan cannot carry without it in clear; write this scenario by hand"
        }
    }

    // MARK: The draft

    func finish(entriesRead: Int) -> PlanDraft {
        var notes = self.notes
        let mapName = options.mapName ?? CaptureDraftOptions.capturedMapName
        if options.mapName == nil {
            for host in addresses {
                notes.append("addresses: \(host.host): \(host.addresses.joined(separator: ", ")) (map '\(mapName)')")
            }
        }
        var draft = PlanDraft(
            scenarios: scenarios, addresses: addresses, mapName: mapName, writesStaticMap: options.mapName == nil,
            secrets: secrets.secrets.map { DraftSecret(name: $0.name, uses: $0.uses, form: $0.form, recordedValue: $0.value) },
            notes: notes.map(redacted), entriesRead: entriesRead)
        if !refused.isEmpty { draft.remove(refused) }
        return draft
    }

    /// A note with every secret's value (in each form) as `{NAME}` and any JWT as `{jwt}`: notes
    /// quote paths of requests that were dropped before their secrets were known.
    private func redacted(_ note: String) -> String {
        var text = PlanText(note)
        for secret in secrets.secrets.sorted(by: { $0.value.count > $1.value.count }) where !secret.value.isEmpty {
            for form in [secret.value] + PercentEncoding.forms(of: secret.value) {
                text.replace(form, with: .secret(secret.name))
            }
        }
        for token in JWTShape.tokens(in: text.shown) { text.replace(token, with: .secret("jwt")) }
        return text.shown
    }
}
