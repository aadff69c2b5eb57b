import Foundation
import LabTestSupport
import PlanFixtures
import Testing

/// The monitoring examples in `monitoring/`, checked by the tools that will read them:
/// promtool for the alert rules (their unit tests included) and the Prometheus configuration,
/// systemd-analyze for the units, and for the Kubernetes manifests, a strict YAML reading
/// (Python's yaml) and the consistency checks below; the plan in their ConfigMap passes
/// `runner check`. A missing tool fails the test, naming the Debian package `make test` installs.
@Suite("monitoring examples", .timeLimit(.minutes(3)))
struct MonitoringRulesTests {
    static let folder = Repository.root.appendingPathComponent("monitoring")

    static func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

    /// `path` when it is there; otherwise a recorded failure that says where it comes from.
    func tool(_ path: String, package: String) -> String? {
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        let message = "\(path) is missing. It comes with Debian's `\(package)` package, which `make test` installs "
            + "(make deps); or: apt-get install \(package)"
        Issue.record(Comment(rawValue: message))
        return nil
    }

    func describe(_ output: ProcessOutput) -> String {
        "exit \(output.status)\n\(output.stdout)\(output.stderr)"
    }

    // MARK: - promtool

    @Test func alertRulesPassPromtoolsCheck() async throws {
        guard let promtool = tool("/usr/bin/promtool", package: "prometheus") else { return }
        let output = try await PackageExecutable.runTool(
            promtool, ["check", "rules", "--lint=all", "--lint-fatal", Self.path("alerts.yaml")])
        #expect(output.status == 0, "promtool check rules monitoring/alerts.yaml: \(describe(output))")
    }

    /// Every alert firing and not firing, with its exact labels and annotations.
    @Test func alertRulesPassTheirUnitTests() async throws {
        guard let promtool = tool("/usr/bin/promtool", package: "prometheus") else { return }
        let output = try await PackageExecutable.runTool(promtool, ["test", "rules", Self.path("alerts.test.yaml")])
        #expect(output.status == 0, "promtool test rules monitoring/alerts.test.yaml: \(describe(output))")
        #expect(output.stdout.contains("SUCCESS"), "\(output.stdout)")
    }

    /// The example configuration, and through its `rule_files` the rules again.
    @Test func prometheusConfigurationIsValid() async throws {
        guard let promtool = tool("/usr/bin/promtool", package: "prometheus") else { return }
        let output = try await PackageExecutable.runTool(promtool, ["check", "config", Self.path("prometheus.yml")])
        #expect(output.status == 0, "promtool check config monitoring/prometheus.yml: \(describe(output))")
        #expect(output.stdout.contains("SUCCESS: 1 rule files found"), "\(output.stdout)")
        // The blackbox_exporter one, which BlackboxParityTests runs against a real Prometheus.
        let blackbox = try await PackageExecutable.runTool(promtool, ["check", "config", Self.path("prometheus-blackbox.yml")])
        #expect(blackbox.status == 0, "promtool check config monitoring/prometheus-blackbox.yml: \(describe(blackbox))")
    }

    /// promtool runs the tests that are written; this checks that each alert has one where it
    /// fires and one where it does not, and that each alert has a severity and both annotations.
    @Test func everyAlertIsTestedFiringAndNotFiringAndIsAnnotated() async throws {
        guard let documents = try await readYAML(["alerts.yaml", "alerts.test.yaml"]) else { return }
        let rules = ((documents["alerts.yaml"]?.first as? [String: Any])?["groups"] as? [[String: Any]] ?? [])
            .flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        let alerts = rules.compactMap { $0["alert"] as? String }
        #expect(alerts.count == 18, "\(alerts)")
        for rule in rules {
            let name = rule["alert"] as? String ?? "?"
            let severity = (rule["labels"] as? [String: Any])?["severity"] as? String
            #expect(severity == "warning" || severity == "critical", "\(name): severity \(severity ?? "missing")")
            let annotations = rule["annotations"] as? [String: Any] ?? [:]
            for key in ["summary", "description"] {
                #expect(!((annotations[key] as? String) ?? "").isEmpty, "\(name) has no \(key)")
            }
        }
        let cases = ((documents["alerts.test.yaml"]?.first as? [String: Any])?["tests"] as? [[String: Any]] ?? [])
            .flatMap { $0["alert_rule_test"] as? [[String: Any]] ?? [] }
        var firing = Set<String>()
        var silent = Set<String>()
        for testCase in cases {
            guard let name = testCase["alertname"] as? String else { continue }
            if ((testCase["exp_alerts"] as? [Any]) ?? []).isEmpty { silent.insert(name) } else { firing.insert(name) }
        }
        for alert in alerts {
            #expect(firing.contains(alert), "no test in alerts.test.yaml shows \(alert) firing")
            #expect(silent.contains(alert), "no test in alerts.test.yaml shows \(alert) not firing")
        }
        #expect(Set(firing).union(silent).subtracting(alerts).isEmpty, "tests for alerts that do not exist")
    }

    // MARK: - systemd

    /// `systemd-analyze verify` in a scratch root (the system's unit folder copied, stubs at the
    /// paths the units execute, since runner is installed nowhere here): unknown keys, bad
    /// values, a bad calendar, a missing dependency all fail it. `security --offline` keeps the
    /// hardening honest: exposure at most 3.0 of 10 (`--threshold` counts tenths; 1.3 and 1.6
    /// with systemd 252).
    @Test func systemdUnitsVerify() async throws {
        guard let analyze = tool("/usr/bin/systemd-analyze", package: "systemd") else { return }
        let units = ["runner-textfile.service", "runner-textfile.timer", "runner-serve.service"]
        let root = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let systemUnits = root.appendingPathComponent("usr/lib/systemd")
        try manager.createDirectory(at: systemUnits, withIntermediateDirectories: true)
        let copy = try await PackageExecutable.runTool("/bin/cp", ["-r", "/usr/lib/systemd/system", systemUnits.path])
        try #require(copy.status == 0, "copying the system's units: \(describe(copy))")
        let etc = root.appendingPathComponent("etc/systemd/system")
        try manager.createDirectory(at: etc, withIntermediateDirectories: true)
        for unit in units {
            let text = try String(contentsOfFile: Self.path("systemd/\(unit)"), encoding: .utf8)
            try text.write(to: etc.appendingPathComponent(unit), atomically: true, encoding: .utf8)
            for command in Self.executables(text) {
                let stub = root.appendingPathComponent(String(command.dropFirst()))
                try manager.createDirectory(at: stub.deletingLastPathComponent(), withIntermediateDirectories: true)
                try "#!/bin/sh\n".write(to: stub, atomically: true, encoding: .utf8)
                try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
            }
        }
        let verify = try await PackageExecutable.runTool(analyze, ["verify", "--man=no", "--root=\(root.path)"] + units)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "systemd-analyze verify: \(describe(verify))")
        for unit in units where unit.hasSuffix(".service") {
            let security = try await PackageExecutable.runTool(
                analyze, ["security", "--offline=true", "--threshold=30", "--no-pager", "--root=\(root.path)", unit])
            #expect(security.status == 0, "systemd-analyze security \(unit): \(describe(security))")
        }
    }

    /// What the units promise each other and the runner: the file written is in the one
    /// writable folder, the folder node_exporter reads on Debian; serve has a vantage label.
    @Test func systemdUnitsAgreeWithTheRunner() throws {
        let textfile = try String(contentsOfFile: Self.path("systemd/runner-textfile.service"), encoding: .utf8)
        #expect(textfile.contains(
            "\nExecStart=/usr/local/bin/runner --metrics /var/lib/prometheus/node-exporter/runner.prom /etc/runner/plans\n"))
        #expect(textfile.contains("\nReadWritePaths=/var/lib/prometheus/node-exporter\n"))
        #expect(textfile.contains("\nProtectSystem=strict\n"))
        #expect(textfile.contains("\nSuccessExitStatus=1\n"))
        let timer = try String(contentsOfFile: Self.path("systemd/runner-textfile.timer"), encoding: .utf8)
        #expect(timer.contains("\nOnCalendar=minutely\n"))
        let serve = try String(contentsOfFile: Self.path("systemd/runner-serve.service"), encoding: .utf8)
        #expect(serve.contains("\nExecStart=/usr/local/bin/runner serve --every 60s --listen ${RUNNER_LISTEN} --label vantage=${RUNNER_VANTAGE} --state /var/lib/runner/state.db /etc/runner/plans\n"))
        // The state file's folder: systemd's, kept across restarts, writable under ProtectSystem=strict.
        #expect(serve.contains("\nStateDirectory=runner\n"))
        #expect(serve.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"))
    }

    /// The absolute paths a unit's Exec lines run (after systemd's prefixes such as `-` and `+`).
    static func executables(_ unit: String) -> Set<String> {
        var paths = Set<String>()
        for line in unit.split(separator: "\n") where line.hasPrefix("Exec") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let command = line[line.index(after: equals)...].drop { "-@:+!".contains($0) }
            if let first = command.split(separator: " ").first, first.hasPrefix("/") { paths.insert(String(first)) }
        }
        return paths
    }

    // MARK: - Kubernetes

    /// Well-formed YAML (no key twice in a mapping) with what Kubernetes requires of every
    /// object, and the manifests consistent with each other and with the alerts: selectors match
    /// the pods, each Deployment's `--label vantage=` is its pod's vantage label, the listener is
    /// reachable, the probes and port are the runner's, the ConfigMap and Secret are the ones
    /// mounted, the PodMonitor gives job="runner" (RunnerDown) and the vantage target label.
    @Test func kubernetesManifestsAreConsistent() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.path("kubernetes"))
            .filter { $0.hasSuffix(".yaml") }.sorted()
        guard let documents = try await readYAML(files.map { "kubernetes/\($0)" }) else { return }
        var objects: [String: [[String: Any]]] = [:]  // by kind
        for file in files {
            for document in documents["kubernetes/\(file)"] ?? [] {
                guard let object = document as? [String: Any], let kind = object["kind"] as? String else {
                    Issue.record("\(file): a document without a kind")
                    continue
                }
                #expect(object["apiVersion"] is String, "\(file): no apiVersion")
                if kind != "Kustomization" {
                    let metadata = object["metadata"] as? [String: Any] ?? [:]
                    #expect(metadata["name"] is String, "\(file): no metadata.name")
                    if kind != "Namespace" { #expect(metadata["namespace"] as? String == "runner", "\(file): namespace") }
                }
                objects[kind, default: []].append(object)
            }
        }

        let kustomization = try #require(objects["Kustomization"]?.first)
        let resources = kustomization["resources"] as? [String] ?? []
        #expect(Set(resources) == Set(files).subtracting(["kustomization.yaml", "podmonitor.yaml"]), "\(resources)")

        let configMap = try #require(objects["ConfigMap"]?.first)
        let configMapName = Self.string(configMap, "metadata", "name")
        let secret = try #require(objects["Secret"]?.first)
        let secretName = Self.string(secret, "metadata", "name")
        let secretKeys = Set((secret["stringData"] as? [String: Any] ?? [:]).keys)

        let deployments = objects["Deployment"] ?? []
        #expect(deployments.count == 2)
        var vantages: [String] = []
        var podLabelSets: [[String: String]] = []
        for deployment in deployments {
            let name = Self.string(deployment, "metadata", "name")
            let spec = deployment["spec"] as? [String: Any] ?? [:]
            #expect(spec["replicas"] as? Int == 1, "\(name): one replica")
            let template = spec["template"] as? [String: Any] ?? [:]
            let podLabels = Self.strings(template, "metadata", "labels")
            podLabelSets.append(podLabels)
            let selector = Self.strings(spec, "selector", "matchLabels")
            #expect(!selector.isEmpty && selector.allSatisfy { podLabels[$0.key] == $0.value }, "\(name): selector")
            let annotations = Self.strings(template, "metadata", "annotations")
            #expect(annotations["prometheus.io/scrape"] == "true" && annotations["prometheus.io/port"] == "9469", "\(name)")

            let pod = template["spec"] as? [String: Any] ?? [:]
            let container = try #require((pod["containers"] as? [[String: Any]])?.first)
            let arguments = container["args"] as? [String] ?? []
            #expect(arguments.first == "serve", "\(name): \(arguments)")
            let vantage = try #require(podLabels["vantage"], "\(name): no vantage pod label")
            vantages.append(vantage)
            #expect(Self.value(after: "--label", in: arguments) == "vantage=\(vantage)", "\(name): \(arguments)")
            let listen = Self.value(after: "--listen", in: arguments) ?? "127.0.0.1:9469 (the default)"
            #expect(listen == "0.0.0.0:9469", "\(name): listens on \(listen), which Prometheus cannot reach")
            #expect(arguments.last == "/etc/runner/plans", "\(name): \(arguments)")
            let ports = container["ports"] as? [[String: Any]] ?? []
            #expect(ports.contains { $0["name"] as? String == "metrics" && $0["containerPort"] as? Int == 9469 }, "\(name)")
            #expect(Self.string(container, "livenessProbe", "httpGet", "path") == "/-/healthy", "\(name)")
            #expect(Self.string(container, "readinessProbe", "httpGet", "path") == "/-/ready", "\(name)")
            let secretRefs = (container["envFrom"] as? [[String: Any]] ?? []).map { Self.string($0, "secretRef", "name") }
            #expect(secretRefs == [secretName], "\(name): envFrom \(secretRefs)")
            let mounts = container["volumeMounts"] as? [[String: Any]] ?? []
            let volumes = pod["volumes"] as? [[String: Any]] ?? []
            let plansVolume = mounts.first { $0["mountPath"] as? String == "/etc/runner/plans" }
            #expect(plansVolume?["subPath"] == nil, "\(name): a subPath mount never sees ConfigMap updates")
            let volume = volumes.first { $0["name"] as? String == plansVolume?["name"] as? String }
            #expect(volume.map { Self.string($0, "configMap", "name") } == configMapName, "\(name): plans volume")
            // The state file on the vantage point's own claim.
            let state = Self.value(after: "--state", in: arguments) ?? ""
            let stateMount = mounts.first { state.hasPrefix(($0["mountPath"] as? String ?? "-") + "/") }
            let stateVolume = volumes.first { $0["name"] as? String == stateMount?["name"] as? String }
            let claim = stateVolume.map { Self.string($0, "persistentVolumeClaim", "claimName") }
            #expect(claim == "runner-state-\(vantage)", "\(name): --state \(state) on \(String(describing: claim))")
            #expect((objects["PersistentVolumeClaim"] ?? []).contains { Self.string($0, "metadata", "name") == claim }, "\(name)")
        }
        #expect(Set(vantages).count == vantages.count, "two Deployments, one vantage point: \(vantages)")

        let service = try #require(objects["Service"]?.first)
        let serviceSelector = Self.strings(service, "spec", "selector")
        for labels in podLabelSets {
            #expect(!serviceSelector.isEmpty && serviceSelector.allSatisfy { labels[$0.key] == $0.value }, "Service selector")
        }
        let podMonitor = try #require(objects["PodMonitor"]?.first)
        #expect(podMonitor["apiVersion"] as? String == "monitoring.coreos.com/v1")
        let monitorSpec = podMonitor["spec"] as? [String: Any] ?? [:]
        let monitorSelector = Self.strings(monitorSpec, "selector", "matchLabels")
        let jobLabel = monitorSpec["jobLabel"] as? String ?? ""
        for labels in podLabelSets {
            #expect(!monitorSelector.isEmpty && monitorSelector.allSatisfy { labels[$0.key] == $0.value }, "PodMonitor selector")
            #expect(labels[jobLabel] == "runner", "the PodMonitor's job label must be \"runner\", which RunnerDown selects")
        }
        #expect(monitorSpec["podTargetLabels"] as? [String] == ["vantage"])
        let endpoints = monitorSpec["podMetricsEndpoints"] as? [[String: Any]] ?? []
        #expect(endpoints.count == 1 && endpoints.first?["port"] as? String == "metrics" && endpoints.first?["honorLabels"] as? Bool == true)

        // The ConfigMap's plans pass `runner check` with the Secret's keys in the environment
        // (a plan reading a secret the Secret does not have would fail here).
        let plans = configMap["data"] as? [String: String] ?? [:]
        #expect(!plans.isEmpty)
        let planFolder = try LabPlans.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: planFolder) }
        var paths: [String] = []
        for (file, text) in plans.sorted(by: { $0.key < $1.key }) {
            let path = planFolder.appendingPathComponent(file).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let environment = Dictionary(uniqueKeysWithValues: secretKeys.map { ($0, "placeholder-\($0)") })
        let check = try await PackageExecutable.run("runner", ["check"] + paths, environment: environment)
        #expect(check.status == 0, "runner check on the ConfigMap's plans: \(describe(check))")
    }

    static func value(after flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func child(_ object: [String: Any], _ keys: [String]) -> Any? {
        var current: Any? = object
        for key in keys { current = (current as? [String: Any])?[key] }
        return current
    }

    static func string(_ object: [String: Any], _ keys: String...) -> String {
        child(object, keys) as? String ?? ""
    }

    static func strings(_ object: [String: Any], _ keys: String...) -> [String: String] {
        (child(object, keys) as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }

    // MARK: - YAML

    /// Reads `monitoring/` files with Python's yaml (Debian's python3-yaml), refusing a key
    /// written twice in one mapping (which PyYAML would otherwise take silently), and hands
    /// each file's documents back through JSON. nil (with a recorded failure) when it cannot.
    func readYAML(_ files: [String]) async throws -> [String: [Any]]? {
        guard let python = tool("/usr/bin/python3", package: "python3-yaml") else { return nil }
        let script = """
            import json, sys, yaml
            class Strict(yaml.SafeLoader):
                pass
            def mapping(loader, node, deep=False):
                seen = set()
                for key_node, _ in node.value:
                    key = loader.construct_object(key_node, deep=True)
                    if key in seen:
                        raise yaml.constructor.ConstructorError(None, None, "key %r appears twice" % (key,), key_node.start_mark)
                    seen.add(key)
                return loader.construct_mapping(node, deep=True)
            Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
            documents = {}
            try:
                for name in sys.argv[2:]:
                    with open(sys.argv[1] + "/" + name, encoding="utf-8") as f:
                        documents[name] = list(yaml.load_all(f, Loader=Strict))
            except yaml.YAMLError as error:
                sys.exit(str(error))
            json.dump(documents, sys.stdout, default=str)
            """
        let output = try await PackageExecutable.runTool(python, ["-c", script, Self.folder.path] + files)
        guard output.status == 0 else {
            Issue.record(
                "reading \(files) as YAML (python3 with Debian's python3-yaml, which `make test` installs): \(describe(output))")
            return nil
        }
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: [Any]]
    }
}
