import Foundation
import RunnerAppTrust

/// `apps:` at the top level — the apps whose own trust files a result is checked against — and
/// a scenario's `app:` (plan-format.md, "Apps"). Each file is read as its platform reads it
/// (`RunnerAppTrust`): what the platform refuses is a plan error at that file's line and column.
extension PlanDecoder {
    /// The apps, in the order written.
    func decodeApps(_ entry: FieldEntry<TopLevelKey>) -> [AppDefinition] {
        guard let pairs = namedEntries(of: entry.value, site: Site(key: "apps", Context(.topLevel))) else { return [] }
        var apps: [AppDefinition] = []
        for pair in pairs {
            let name = pair.key
            guard Self.isVariableName(name) else {
                report(at: pair.keyMark, "'\(name)' is not an app name in apps (letters, digits, '.', '-' and '_')")
                continue
            }
            appNamesWritten.append(name)
            let context = Context(.app(name))
            guard let fields = fields(
                of: pair.value, site: Site(subject: "app '\(name)'", Context(.apps)), context: context, ownerMark: pair.keyMark,
                keys: Keys.app)
            else { continue }
            let errorsBefore = errors.count
            var app = AppDefinition(name: name, location: location(pair.keyMark))
            for field in fields.entries {
                switch field.name {
                case .android: app.android = decodeAndroidApp(field, context: context)
                case .ios: app.ios = decodeIOSApp(field, context: context)
                case .okhttp:
                    if let (pins, locations) = decodeOkHttpPins(field, context: context) {
                        app.okhttp = pins
                        app.okhttpPatternLocations = locations
                    }
                case .pinWarn:
                    if let warning = duration(field.value, for: Site(key: "pin_warn", context)) { app.pinWarning = warning }
                }
            }
            guard errors.count == errorsBefore else { continue }
            guard app.android != nil || app.ios != nil || app.okhttp != nil else {
                report(at: pair.keyMark, "app '\(name)' names no platform; give 'android', 'ios' or 'okhttp'")
                continue
            }
            apps.append(app)
        }
        return apps
    }

    /// `android: {network_security_config, target_sdk, debuggable, raw}`.
    private func decodeAndroidApp(_ entry: FieldEntry<AppKey>, context: Context) -> AppDefinition.Android? {
        let context = context.part(.android)
        guard let fields = fields(of: entry.value, site: Site(key: "android", context), context: context, ownerMark: entry.keyMark,
            keys: Keys.appAndroid)
        else { return nil }
        var file: String?
        var targetSDK = AppDefinition.Android.defaultTargetSDK
        var debuggable = false
        var raw: String?
        var rawMark = entry.keyMark
        var failed = false
        for field in fields.entries {
            func site() -> Site { Site(key: field.key, context) }
            switch field.name {
            case .networkSecurityConfig:
                file = string(field.value, for: site()).flatMap { planRelativeFile($0, what: "network security config", site: site()) }
                failed = failed || file == nil
            case .targetSDK:
                if let value = integer(field.value, for: site(), minimum: 1, maximum: 1000) { targetSDK = value } else { failed = true }
            case .debuggable:
                if let value = bool(field.value, for: site()) { debuggable = value } else { failed = true }
            case .raw:
                rawMark = field.value.mark
                raw = string(field.value, for: site()).flatMap { planRelativeDirectory($0, what: "raw folder", site: site()) }
                failed = failed || raw == nil
            }
        }
        guard !failed else { return nil }
        guard let file else {
            return AppDefinition.Android(config: .platformDefault, file: nil, targetSDK: targetSDK, debuggable: debuggable)
        }
        guard let data = contents(of: file, at: entry.keyMark) else { return nil }
        do throws(AppTrustFileError) {
            let config = try AndroidNetworkSecurityConfig.parse(
                data, path: shownPath(file), debuggable: debuggable, rawDirectory: raw)
            var android = AppDefinition.Android(config: config, file: file, targetSDK: targetSDK, debuggable: debuggable)
            android.rawAnchorKeys = rawAnchorKeys(of: config, in: raw, at: rawMark)
            return android
        } catch {
            report(error)
            return nil
        }
    }

    /// The keys of each `@raw/NAME` anchor the config names, read from `raw` (a file that holds
    /// no certificate is an error: Android would refuse to start on it). Without `raw` the
    /// anchors' files are unknown, and the chain is not checked against them.
    private func rawAnchorKeys(of config: AndroidNetworkSecurityConfig, in raw: String?, at mark: YAMLMark) -> [String: [String]] {
        guard let raw else { return [:] }
        var names = Set<String>()
        for domainConfig in config.domainConfigs + (config.baseConfig.map { [$0] } ?? []) {
            for anchor in domainConfig.trustAnchors ?? [] where anchor.source.hasPrefix("@raw/") { names.insert(anchor.source) }
        }
        for anchor in config.debugAnchors ?? [] where anchor.source.hasPrefix("@raw/") { names.insert(anchor.source) }
        var keys: [String: [String]] = [:]
        for name in names.sorted() {
            guard let pins = AnchorKeys.pins(ofRaw: String(name.dropFirst("@raw/".count)), in: raw) else {
                report(at: mark, "trust anchor \(name) of '\(config.path)' holds no certificate (PEM) in raw folder '\(shownPath(raw))'")
                continue
            }
            keys[name] = pins
        }
        return keys
    }

    /// A file the platform refuses, as a plan error at its own line (the caret under the column);
    /// the files are parsed under the path as messages show it.
    private func report(_ error: AppTrustFileError) {
        report(PlanError(
            location: SourceLocation(file: error.path, line: error.line, column: error.column), message: error.message,
            sourceLine: error.sourceLine))
    }

    /// `ios: {info_plist, version}`.
    private func decodeIOSApp(_ entry: FieldEntry<AppKey>, context: Context) -> AppDefinition.IOS? {
        let context = context.part(.ios)
        guard let fields = fields(of: entry.value, site: Site(key: "ios", context), context: context, ownerMark: entry.keyMark,
            keys: Keys.appIOS)
        else { return nil }
        var version = AppDefinition.IOS.defaultVersion
        var failed = false
        for field in fields.entries {
            switch field.name {
            case .infoPlist: break
            case .version:
                if let value = integer(field.value, for: Site(key: "version", context), minimum: 9, maximum: 99) { version = value } else { failed = true }
            }
        }
        guard let plistEntry = required(.infoPlist, in: fields),
            let file = string(plistEntry.value, for: Site(key: "info_plist", context))
                .flatMap({ planRelativeFile($0, what: "Info.plist", site: Site(key: "info_plist", context)) }),
            !failed, let data = contents(of: file, at: plistEntry.keyMark)
        else { return nil }
        do throws(AppTrustFileError) {
            return AppDefinition.IOS(settings: try IOSTrustSettings.parse(data, path: shownPath(file)), file: file, version: version)
        } catch {
            report(error)
            return nil
        }
    }

    /// `okhttp: {pins: {PATTERN: ["sha256/…", …]}}`, refused where OkHttp's builder refuses it.
    private func decodeOkHttpPins(_ entry: FieldEntry<AppKey>, context: Context) -> (OkHttpPins, [SourceLocation])? {
        let context = context.part(.okhttp)
        guard let fields = fields(of: entry.value, site: Site(key: "okhttp", context), context: context, ownerMark: entry.keyMark,
            keys: Keys.appOkHttp),
            let pinsEntry = required(.pins, in: fields),
            let pairs = namedEntries(of: pinsEntry.value, site: Site(key: "pins", context))
        else { return nil }
        var patterns: [(pattern: String, pins: [String])] = []
        // Where each pattern and pin is written, for OkHttp's refusal.
        var marks: [(pattern: YAMLMark, pins: [YAMLMark])] = []
        var failed = false
        for pair in pairs {
            guard let items = items(pair.value, expected: "a list of pins (sha256/BASE64)", for: Site(subject: "pattern '\(pair.key)'", context))
            else {
                failed = true
                continue
            }
            var pins: [String] = []
            var pinMarks: [YAMLMark] = []
            for item in items {
                guard let text = string(item, for: Site(subject: "a pin of '\(pair.key)'", context)) else {
                    failed = true
                    continue
                }
                pins.append(text.value)
                pinMarks.append(text.mark)
            }
            guard !pins.isEmpty else {
                report(at: pair.value.mark, "expected at least one pin for pattern '\(pair.key)' \(context)")
                failed = true
                continue
            }
            patterns.append((pair.key, pins))
            marks.append((pair.keyMark, pinMarks))
        }
        guard !failed else { return nil }
        do throws(OkHttpPinsError) {
            return (try OkHttpPins(patterns: patterns), marks.map { location($0.pattern) })
        } catch {
            let mark = error.pinIndex.map { marks[error.patternIndex].pins[$0] } ?? marks[error.patternIndex].pattern
            report(at: mark, "\(error.message) \(context) (OkHttp's CertificatePinner refuses it)")
            return nil
        }
    }

    /// A scenario's (or the defaults') `app`: an app name or a list of them, each declared once.
    func appReferences(_ node: YAMLNode, site: @autoclosure () -> Site) -> [String]? {
        let nodes: [YAMLNode]
        if case .scalar = node.content {
            nodes = [node]
        } else {
            guard let items = items(node, expected: "an app name or a list of them", for: site()) else { return nil }
            nodes = Array(items)
        }
        guard !nodes.isEmpty else {
            report(at: node.mark, "expected at least one app for \(site()), got an empty list")
            return nil
        }
        var names: [String] = []
        var failed = false
        for item in nodes {
            guard let text = string(item, for: site()) else {
                failed = true
                continue
            }
            // An app with errors of its own is named, not unknown (its errors are reported).
            guard appNamesWritten.contains(text.value) else {
                let hint = Suggestion.closest(to: text.value, among: appNamesWritten).map { "; did you mean '\($0)'?" }
                    ?? (appNamesWritten.isEmpty
                        ? "; the plan names no apps: add 'apps:' at the top level"
                        : "; the plan's apps are \(appNamesWritten.map { "'\($0)'" }.joined(separator: ", "))")
                report(at: text.mark, "unknown app \(text.quoted) \(site().context)\(hint)")
                failed = true
                continue
            }
            guard !names.contains(text.value) else {
                report(at: text.mark, "app \(text.quoted) is listed twice in \(site())")
                failed = true
                continue
            }
            names.append(text.value)
        }
        return failed ? nil : names
    }

    /// The bytes of a file `planRelativeFile` accepted; reported at `mark` when it cannot be read.
    private func contents(of file: String, at mark: YAMLMark) -> Data? {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            report(at: mark, "'\(file)' cannot be read: \(error.localizedDescription)")
            return nil
        }
    }
}
