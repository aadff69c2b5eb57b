import Foundation
import PlanFixtures
import RunnerPlan
import Testing
import RunnerVocabulary

/// The example plan of plan-format.md (with the files it names created), plus a scenario
/// that overrides defaults and a third using body_file, --var and JSON matchers.
private let contractPlan = """
    version: 1                      # required; 1 is the only version
    name: prod                      # suite name in reports; default: file name without extension

    defaults:                       # every scenario inherits these; a scenario may override any
      timeout: 10s                  # whole transfer, redirects included
      connect_timeout: 3s
      http: auto                    # "1.1" | "2" | auto (ALPN decides)
      follow_redirects: true
      max_redirects: 10
      ca: certs/ca.pem              # extra trust anchors (PEM); default: the system store
      strategy: auto
      ips: first                    # first | all
      ip_version: any               # 4 | 6 | any (any = IPv4 first, as the mobile SDKs do)
      domains: builtin              # the domain map a scenario uses when it names none
      headers: {User-Agent: runner/1}

    vars:                           # ${name} anywhere in a string value; --var NAME=VALUE overrides
      region: cn-north

    domains:                        # named domain maps: where a host's IPs come from
      builtin:
        static:                     # a built-in IP list, as an app ships or a server issues it
          api.example.com: [203.0.113.10, 203.0.113.11]
          v6.example.com: ["2001:db8::10"]
      tencent:
        httpdns:
          format: dnspod            # dnspod | alibaba | doh-json
          url: "http://119.29.29.29/d?dn={host}&ttl=1"
          timeout: 2s
          fallback: system          # none (default) | system | <another map's name>
      ali:
        httpdns:
          format: alibaba
          url: "http://203.107.1.1/100000/d?host={host}"

    scenarios:
      - name: login over SNI        # required, unique in the plan
        tags: [login, critical]
        domains: ali
        strategy: sni-resolve       # or a list: [trust-override, sni-resolve] runs each
        ips: all
        request:
          method: POST              # default GET
          url: https://api.example.com/v1/login
          headers: {Content-Type: application/json, Authorization: "Bearer ${secret:API_TOKEN}"}
          body: '{"user":"probe"}'  # or body_file: payloads/photo.jpg (streamed, path relative to the plan)
                                    # or body_base64: "AAEC..."
        expect:
          status: 200               # int | list of ints | "2xx"; default "2xx"
          headers:
            Content-Type: {contains: json}      # matcher: a scalar means equals;
            X-Request-Id: {matches: "^[0-9a-f-]{36}$"}   # or {equals|contains|matches|absent: ...}
          body:
            contains: token         # also equals, matches, sha256, json: {"$.user.id": 42}
          certificate:
            min_days_left: 14
            issuer: {contains: "Let's Encrypt"}
          time:
            total: 800ms            # maxima; also connect, tls, first_byte
          http_version: "2"
          redirects: 0              # number of hops followed

      - name: overrides in ${region}
        strategy: [trust-override, sni-resolve]
        timeout: 1.5s
        http: 2
        ip_version: 6
        max_body: 512KiB
        retries: 2
        follow_redirects: false
        domains: tencent
        headers: {X-Region: "${region}", user-agent: scenario-agent}
        request:
          url: https://v6.example.com:8443/items?page=1
          insecure: true
          headers: {X-REGION: "${env:REGION_OVERRIDE}", Accept: "*/*"}
          body_base64: "AAEC
            /w=="
        expect:
          status: [200, 204]
          headers:
            Server: {absent: true}
            Cache-Control: no-store
          time: {connect: 250ms, tls: 300ms, first_byte: 1m}

      - name: upload
        strategy: header-only
        request:
          method: put
          url: http://api.example.com/upload/$${literal}
          body_file: payloads/photo.jpg
        expect:
          status: 3xx
          body:
            sha256: 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08
            json:
              "$.user.id": 42
              "$.user['display name']": probe
              "$.items[0].price": 1.5
              "$.ok": true
              "$.missing": ~
              "$.code": "42"
              "$": {list: [1, two]}
          certificate:
            subject: {equals: "CN=api.example.com"}
    """

@Suite("The contract's example plan")
struct ContractPlanTests {
    let environment = ["API_TOKEN": "t0ps3cr3t", "REGION_OVERRIDE": "eu-west"]

    private func loadContractPlan(variables: [String: String] = [:]) throws -> (Plan, PlanWorkspace) {
        let workspace = try PlanWorkspace()
        try workspace.write("certs/ca.pem", "-----BEGIN CERTIFICATE-----\n")
        try workspace.write("payloads/photo.jpg", bytes: [0xFF, 0xD8, 0xFF])
        let path = try workspace.write("prod.yaml", contractPlan)
        do {
            let plan = try PlanLoader.load(path: path, variables: variables, environment: environment)
            return (plan, workspace)
        } catch {
            Issue.record("unexpected plan errors:\n\(error)")
            throw error
        }
    }

    @Test("plan-level values and domain maps")
    func planLevel() throws {
        let (plan, workspace) = try loadContractPlan()
        #expect(plan.path == workspace.plans + "/prod.yaml")
        #expect(plan.name == "prod")
        #expect(plan.secrets == [SecretValue(name: "API_TOKEN", value: "t0ps3cr3t")])
        #expect(plan.domainMaps.map(\.name) == ["builtin", "tencent", "ali"])

        let builtin = try #require(plan.domainMap(named: "builtin"))
        #expect(builtin.location.line == 21)
        #expect(builtin.location.column == 3)
        guard case .staticList(let entries) = builtin.source else {
            Issue.record("builtin should be a static list")
            return
        }
        #expect(entries.map(\.host) == ["api.example.com", "v6.example.com"])
        #expect(entries[0].addresses.map(\.text) == ["203.0.113.10", "203.0.113.11"])
        #expect(entries[1].addresses.map(\.text) == ["2001:db8::10"])
        #expect(entries[1].addresses[0].family == .v6)

        let tencent = try #require(plan.domainMap(named: "tencent"))
        #expect(tencent.source == .httpdns(HTTPDNSSpec(
            format: .dnspod, urlTemplate: "http://119.29.29.29/d?dn={host}&ttl=1", timeout: .seconds(2),
            fallback: .system)))
        let ali = try #require(plan.domainMap(named: "ali"))
        #expect(ali.source == .httpdns(HTTPDNSSpec(
            format: .alibaba, urlTemplate: "http://203.107.1.1/100000/d?host={host}", timeout: .seconds(2),
            fallback: .none)))
    }

    @Test("the example scenario, with defaults merged in")
    func exampleScenario() throws {
        let (plan, workspace) = try loadContractPlan()
        #expect(plan.scenarios.count == 3)
        let login = plan.scenarios[0]
        #expect(login.name == "login over SNI")
        #expect(login.location == SourceLocation(file: plan.path, line: 37, column: 5))
        #expect(login.tags == ["login", "critical"])
        #expect(login.domainMap == "ali")
        #expect(login.strategies == [.sniResolve])
        #expect(login.ips == .all)
        #expect(login.ipVersion == .any)

        var settings = TransferSettings()
        settings.timeout = .seconds(10)
        settings.connectTimeout = .seconds(3)
        settings.http = .auto
        settings.followRedirects = true
        settings.maxRedirects = 10
        settings.caFile = workspace.plans + "/certs/ca.pem"
        #expect(login.settings == settings)

        #expect(login.request.method == "POST")
        #expect(login.request.url == PlanURL(
            scheme: .https, host: "api.example.com", explicitPort: nil, pathAndQuery: "/v1/login"))
        #expect(login.request.headers == [
            Header(name: "User-Agent", value: "runner/1"),
            Header(name: "Content-Type", value: "application/json"),
            Header(name: "Authorization", value: "Bearer t0ps3cr3t"),
        ])
        #expect(login.request.body == .bytes(Data(#"{"user":"probe"}"#.utf8)))

        var expect = Expectations()
        expect.status = .codes([200])
        expect.headers = [
            HeaderExpectation(name: "Content-Type", matcher: .contains("json")),
            HeaderExpectation(name: "X-Request-Id", matcher: .matches("^[0-9a-f-]{36}$")),
        ]
        expect.body = [.contains("token")]
        var certificate = CertificateExpectation()
        certificate.minDaysLeft = 14
        certificate.issuer = .contains("Let's Encrypt")
        expect.certificate = certificate
        expect.time.total = .milliseconds(800)
        expect.httpVersion = "2"
        expect.redirects = 0
        #expect(login.expect == expect)
    }

    @Test("a scenario's overrides, header merging and variables")
    func overrides() throws {
        let (plan, _) = try loadContractPlan()
        let scenario = plan.scenarios[1]
        #expect(scenario.name == "overrides in cn-north")
        #expect(scenario.domainMap == "tencent")
        #expect(scenario.strategies == [.trustOverride, .sniResolve])
        #expect(scenario.ips == .first)
        #expect(scenario.ipVersion == .v6)
        #expect(scenario.settings.timeout == .milliseconds(1500))
        #expect(scenario.settings.connectTimeout == .seconds(3))
        #expect(scenario.settings.http == .http2)
        #expect(scenario.settings.maxBody == 512 * 1024)
        #expect(scenario.settings.retries == 2)
        #expect(plan.scenarios[0].settings.retries == 0)
        #expect(scenario.settings.followRedirects == false)
        #expect(scenario.settings.insecure == true)
        #expect(scenario.request.method == "GET")
        #expect(scenario.request.url.authority == "v6.example.com:8443")
        #expect(scenario.request.url.pathAndQuery == "/items?page=1")
        // Later layers replace a name case-insensitively, keeping its first position.
        #expect(scenario.request.headers == [
            Header(name: "user-agent", value: "scenario-agent"),
            Header(name: "X-REGION", value: "eu-west"),
            Header(name: "Accept", value: "*/*"),
        ])
        #expect(scenario.request.body == .bytes(Data([0x00, 0x01, 0x02, 0xFF])))
        #expect(scenario.expect.status == .codes([200, 204]))
        #expect(scenario.expect.headers == [
            HeaderExpectation(name: "Server", matcher: .absent),
            HeaderExpectation(name: "Cache-Control", matcher: .equals("no-store")),
        ])
        #expect(scenario.expect.time.connect == .milliseconds(250))
        #expect(scenario.expect.time.tls == .milliseconds(300))
        #expect(scenario.expect.time.firstByte == .seconds(60))
        #expect(scenario.expect.time.total == nil)
    }

    @Test("body_file, literal ${, status classes and JSON matchers")
    func upload() throws {
        let (plan, workspace) = try loadContractPlan()
        let upload = plan.scenarios[2]
        #expect(upload.domainMap == "builtin")
        #expect(upload.strategies == [.headerOnly])
        #expect(upload.request.method == "PUT")
        // `$${` became a literal `${`, which URLComponents percent-encodes.
        #expect(upload.request.url.pathAndQuery == "/upload/$%7Bliteral%7D")
        #expect(upload.request.body == .file(path: workspace.plans + "/payloads/photo.jpg"))
        #expect(upload.expect.status == .classes([3]))
        #expect(upload.expect.certificate?.subject == .equals("CN=api.example.com"))
        guard upload.expect.body.count == 2, case .json(let json) = upload.expect.body[1] else {
            Issue.record("expected sha256 then json matchers, got \(upload.expect.body)")
            return
        }
        #expect(upload.expect.body[0] == .sha256("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"))
        #expect(json.map(\.path.text) == [
            "$.user.id", "$.user['display name']", "$.items[0].price", "$.ok", "$.missing", "$.code", "$",
        ])
        #expect(json[0].path.components == [.member("user"), .member("id")])
        #expect(json[1].path.components == [.member("user"), .member("display name")])
        #expect(json[2].path.components == [.member("items"), .index(0), .member("price")])
        #expect(json[6].path.components == [])
        #expect(json.map(\.value) == [
            .number(42), .string("probe"), .number(1.5), .bool(true), .null, .string("42"),
            .object(["list": .array([.number(1), .string("two")])]),
        ])
    }

    @Test("--var overrides vars")
    func commandLineVariables() throws {
        let (plan, _) = try loadContractPlan(variables: ["region": "ap-south"])
        #expect(plan.scenarios[1].name == "overrides in ap-south")
        #expect(plan.scenarios[1].request.headers.first { $0.name == "X-REGION" }?.value == "eu-west")
    }

    @Test("the name defaults to the file name without its extension")
    func defaultName() throws {
        let workspace = try PlanWorkspace()
        let path = try workspace.write("staging.eu.yaml", """
            version: 1
            scenarios:
              - name: ping
                request: {url: "http://[2001:db8::1]:8080/ping"}
            """)
        let plan = try PlanLoader.load(path: path, environment: [:])
        #expect(plan.name == "staging.eu")
        #expect(plan.domainMaps.isEmpty)
        let ping = try #require(plan.scenarios.first)
        #expect(ping.domainMap == "system")
        #expect(ping.strategies == [.auto])
        #expect(ping.settings == TransferSettings())
        #expect(ping.expect == Expectations())
        #expect(ping.request.url.host == "2001:db8::1")
        #expect(ping.request.url.port == 8080)
        #expect(ping.request.headers.isEmpty)
        #expect(ping.request.body == nil)
    }
}
