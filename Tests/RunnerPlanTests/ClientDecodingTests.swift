import Foundation
import PlanFixtures
import RunnerVocabulary
import Testing

@testable import RunnerPlan

/// `clients:` and a map's `clients`, decoded, and every plan error they can make, at its line
/// and column (plan-format.md, "Client populations").
@Suite("Client populations in a plan")
struct ClientDecodingTests {
    static let maps = """
        domains:
          ali: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: all}}
          some: {httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}&ip={client_subnet}", clients: [bj-unicom]}}
          doh: {httpdns: {format: doh, url: "https://192.0.2.1/dns-query", clients: [gd-mobile]}}
        scenarios:
          - {name: a, domains: ali, request: {url: "https://api.example.com/"}}
        """

    static func errors(_ yaml: String) throws -> [String] {
        let workspace = try PlanWorkspace()
        return loadErrors(try workspace.write("plan.yaml", yaml)).map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
    }

    @Test func populationsAndTheMapsThatAskAsThem() throws {
        let workspace = try PlanWorkspace()
        let plan = try PlanLoader.load(path: try workspace.write("plan.yaml", """
            version: 1
            clients:
              gd-mobile: {ip: 120.196.0.1, labels: {region: guangdong, isp: china-mobile}}
              bj-unicom: {subnet: 123.112.0.0/24, labels: {isp: china-unicom, region: beijing}}
              v6: {ip: "2001:db8:1:2::5", labels: {isp: other, region: x}}
            \(Self.maps)
            """), environment: [:])
        #expect(plan.clients.map(\.name) == ["gd-mobile", "bj-unicom", "v6"])
        let mobile = plan.clients[0]
        #expect(mobile.address.text == "120.196.0.1" && mobile.subnet.description == "120.196.0.0/24", "an ip's /24")
        #expect(mobile.labels.map(\.name) == ["isp", "region"] && mobile.labels.map(\.value) == ["china-mobile", "guangdong"])
        #expect(plan.clients[1].address.text == "123.112.0.0" && plan.clients[1].subnet.description == "123.112.0.0/24")
        #expect(plan.clients[2].subnet.description == "2001:db8:1::/56", "an IPv6 ip's /56")
        let clients = plan.domainMaps.map { map -> ClientSelection? in
            if case .httpdns(let service) = map.source { return service.clients }
            return nil
        }
        #expect(clients == [.all, .named(["bj-unicom"]), .named(["gd-mobile"])])
        #expect(plan.mapsAskingAsClients.map(\.name) == ["ali", "some", "doh"])
    }

    @Test func aClientsMistakesAreErrorsAtTheirPlace() throws {
        let errors = try Self.errors("""
            version: 1
            clients:
              both: {ip: 120.196.0.1, subnet: 120.196.0.0/16}
              neither: {labels: {isp: a}}
              bad-ip: {ip: 120.196.0.300}
              host-bits: {subnet: 120.196.0.1/16}
              not-cidr: {subnet: 120.196.0.0}
              "bad name!": {ip: 192.0.2.1}
              reserved: {ip: 192.0.2.1, labels: {status: x}}
              malformed: {ip: 192.0.2.1, labels: {Region: x}}
              first: {ip: 192.0.2.1, labels: {isp: a, region: b}}
              second: {ip: 192.0.2.2, labels: {isp: a}}
              unknown: {ip: 192.0.2.3, cidr: 192.0.2.0/24, labels: {isp: a, region: b}}
            scenarios:
              - {name: a, request: {url: "https://api.example.com/"}}
            """)
        #expect(errors == [
            "3:27 client 'both' has both 'ip' and 'subnet'; give exactly one",
            "4:3 client 'neither' needs exactly one of 'ip' (an address) or 'subnet' (a CIDR)",
            "5:16 '120.196.0.300' is not an IP address ('ip' in client 'bad-ip'); a range goes in 'subnet', e.g. 120.196.0.0/16",
            "6:23 '120.196.0.1/16' has bits set past its prefix ('subnet' in client 'host-bits'); did you mean '120.196.0.0/16'?",
            "7:22 '120.196.0.0' is not a subnet ('subnet' in client 'not-cidr'); expected ADDRESS/LENGTH, e.g. 123.112.0.0/24",
            "8:3 'bad name!' is not a client name in clients (letters, digits, '.', '-' and '_')",
            "9:38 label 'status' in client 'reserved' is reserved (the reports' own labels: client, ip, plan, scenario, status, strategy); choose another name",
            "10:39 'Region' is not a label name ('labels' in client 'malformed'); use lower-case letters, digits and '_', not starting with a digit",
            "12:27 client 'second' has labels isp; every client needs the same label names, as client 'first' has isp, region",
            "13:28 unknown key 'cidr' in client 'unknown'; expected one of ip, subnet, labels",
        ], "\(errors)")
    }

    @Test func aMapsClientsMistakesAreErrorsAtTheirPlace() throws {
        let errors = try Self.errors("""
            version: 1
            clients:
              gd-mobile: {ip: 120.196.0.1}
              bj-unicom: {ip: 123.112.0.1}
            domains:
              typo: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: [gd-mobil]}}
              twice: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: [gd-mobile, gd-mobile]}}
              empty: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: []}}
              word: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: some}}
              nowhere: {httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}", clients: all}}
              placeholder: {httpdns: {format: dnspod, url: "http://192.0.2.1/d?dn={host}&ip={client_subnet}"}}
              listed: {static: {api.example.com: [192.0.2.1]}, clients: all}
            scenarios:
              - {name: a, request: {url: "https://api.example.com/"}}
            """)
        #expect(errors == [
            "6:98 unknown client 'gd-mobil' in httpdns of domain map 'typo'; did you mean 'gd-mobile'?",
            "7:110 client 'gd-mobile' is listed twice in 'clients' in httpdns of domain map 'twice'",
            "8:98 expected at least one client name for 'clients' in httpdns of domain map 'empty', got an empty list (leave 'clients' out to ask as this machine)",
            "9:97 expected 'all' or a list of client names for 'clients' in httpdns of domain map 'word', got 'some'",
            "10:76 'clients' in httpdns of domain map 'nowhere' asks as each client, but the URL has no '{client}' or '{client_subnet}' to carry it and format 'dnspod' has no client field of its own; e.g. add '&ip={client}' to the URL",
            "11:48 '{client_subnet}' in the URL in httpdns of domain map 'placeholder' needs 'clients' on the map: the populations to ask as (e.g. clients: all, with the plan's 'clients:' at the top level)",
            "12:52 unknown key 'clients' in domain map 'listed'; 'clients' asks an HTTPDNS service as each user population; a static map gives every client the same addresses",
        ], "\(errors)")
    }

    @Test func aMapsClientsNeedThePlansClients() throws {
        let errors = try Self.errors("""
            version: 1
            domains:
              ali: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: all}}
            scenarios:
              - {name: a, request: {url: "https://api.example.com/"}}
            """)
        #expect(errors == [
            "3:87 'clients' in httpdns of domain map 'ali' names populations to ask as, but the plan names none: add 'clients:' at the top level",
        ], "\(errors)")
    }

    @Test func edgeRulesSelectClientsByNameOrLabelsAndBoundTheirAddresses() throws {
        let workspace = try PlanWorkspace()
        let plan = try PlanLoader.load(path: try workspace.write("plan.yaml", """
            version: 1
            clients:
              gd-mobile: {ip: 120.196.0.1, labels: {isp: china-mobile, region: guangdong}}
              sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom, region: shanghai}}
            domains:
              sh-edges: {static: {api.example.com: [101.80.9.9]}}
              ali: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: all}}
            scenarios:
              - name: a
                domains: ali
                request: {url: "https://api.example.com/"}
                expect:
                  edges:
                    - {clients: {region: guangdong}, within: [120.196.0.0/16, 183.232.0.0/16]}
                    - {clients: [sh-telecom], within: [sh-edges, 101.80.0.7]}
            """), environment: [:])
        let rules = try #require(plan.scenarios.first?.expect.edges)
        #expect(rules.count == 2)
        #expect(plan.clients.map { rules[0].selects($0.identity) } == [true, false])
        #expect(plan.clients.map { rules[1].selects($0.identity) } == [false, true])
        let address = try #require(IPAddress("101.80.0.7"))
        #expect(rules[0].location.line == 14 && rules[1].within == [.map("sh-edges"), .address(address)])
    }

    @Test func edgesThatWouldCheckNobodyAreErrors() throws {
        let errors = try Self.errors("""
            version: 1
            clients:
              gd-mobile: {ip: 120.196.0.1, labels: {isp: china-mobile}}
              sh-telecom: {ip: 101.80.0.1, labels: {isp: china-telecom}}
            domains:
              ali: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: [gd-mobile]}}
              list: {static: {api.example.com: [192.0.2.9]}}
            scenarios:
              - name: other map
                domains: list
                request: {url: "https://api.example.com/"}
                expect: {edges: [{clients: [gd-mobile], within: [list]}]}
              - name: nobody asked
                domains: ali
                request: {url: "https://api.example.com/"}
                expect:
                  edges:
                    - {clients: [gd-mobile], within: [list]}
                    - {clients: {isp: china-telecom}, within: [list]}
            """)
        #expect(errors == [
            "12:5 'expect.edges' checks where client populations are sent, but scenario 'other map' looks its host up through "
                + "domain map 'list', which is not asked as clients: add 'clients' to an httpdns map and use it",
            "19:11 this rule of 'expect.edges' (scenario 'nobody asked') selects none of the clients domain map 'ali' is asked as "
                + "(gd-mobile): it would check nobody",
        ], "\(errors)")
    }

    @Test func edgeRuleMistakesAreErrorsAtTheirPlace() throws {
        let errors = try Self.errors("""
            version: 1
            clients:
              gd-mobile: {ip: 120.196.0.1, labels: {isp: china-mobile}}
            domains:
              ali: {httpdns: {format: alibaba, url: "http://192.0.2.1/d?host={host}&ip={client}", clients: all}}
            scenarios:
              - name: a
                request: {url: "https://api.example.com/"}
                expect:
                  edges:
                    - {clients: [gd-mobil], within: [120.196.0.0/16]}
                    - {clients: {isp: china-unicom}, within: [120.196.0.0/16]}
                    - {clients: {ips: x}, within: [120.196.0.0/16]}
                    - {clients: [gd-mobile], within: [120.196.0.1/16, ali, nowhere, 10.0.0.0/40]}
                    - {clients: [gd-mobile]}
                    - {clients: [gd-mobile], within: []}
            """)
        #expect(errors == [
            "11:22 unknown client 'gd-mobil' in 'clients' in expect.edges of scenario 'a'; did you mean 'gd-mobile'?",
            "12:21 no client has isp=china-unicom ('clients' in expect.edges of scenario 'a'): the rule would check nobody",
            "13:22 unknown label 'ips' in 'clients' in expect.edges of scenario 'a'; did you mean 'isp'? the clients' labels are isp",
            "14:43 '120.196.0.1/16' has bits set past its prefix ('within' in expect.edges of scenario 'a'); did you mean '120.196.0.0/16'?",
            "14:59 map 'ali' in 'within' in expect.edges of scenario 'a' is not a static map: 'within' bounds addresses by a list the plan keeps",
            "14:64 'nowhere' in 'within' in expect.edges of scenario 'a' is neither a CIDR, an address nor a domain map; expected a CIDR, an address or a static map's name",
            "14:73 '10.0.0.0/40' is not a CIDR ('within' in expect.edges of scenario 'a'); expected ADDRESS/LENGTH, e.g. 120.196.0.0/16",
            "15:11 missing required key 'within' in expect.edges of scenario 'a'",
            "16:42 expected at least one CIDR, address or static map for 'within' in expect.edges of scenario 'a', got an empty list",
        ], "\(errors)")
        let none = try Self.errors("""
            version: 1
            scenarios:
              - {name: a, request: {url: "https://api.example.com/"}, expect: {edges: [{clients: [x], within: [10.0.0.0/8]}]}}
            """)
        #expect(none == [
            "3:68 'edges' in scenario 'a' checks where client populations are sent, but the plan names none: add 'clients:' at the top level",
        ], "\(none)")
    }

    @Test func subnetsParseContainAndNormalise() throws {
        #expect(try IPSubnet.parse("10.1.0.0/16").get().contains(IPAddress("10.1.255.7")!))
        #expect(!(try IPSubnet.parse("10.1.0.0/16").get().contains(IPAddress("10.2.0.1")!)))
        #expect(!(try IPSubnet.parse("10.1.0.0/16").get().contains(IPAddress("::1")!)), "another family never")
        #expect(try IPSubnet.parse("2001:db8::/32").get().contains(IPAddress("2001:db8:ffff::1")!))
        #expect(try IPSubnet.parse("0.0.0.0/0").get().contains(IPAddress("203.0.113.9")!))
        #expect(IPSubnet.parse("10.1.2.3/33") == .failure(.malformed))
        #expect(IPSubnet.parse("10.1.2.3/") == .failure(.malformed))
        #expect(IPSubnet.parse("10.1.2.3/+8") == .failure(.malformed))
        #expect(IPSubnet.parse("example.com/8") == .failure(.malformed))
        #expect(IPSubnet.parse("10.1.2.3/8") == .failure(.hostBitsSet(network: IPSubnet(covering: IPAddress("10.0.0.0")!, prefixLength: 8))))
        #expect(IPSubnet(covering: IPAddress("10.1.2.3")!, prefixLength: 20).description == "10.1.0.0/20")
    }
}
