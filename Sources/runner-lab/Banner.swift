import RunnerLab

/// The start-up table: which address shows what, and how to try it.
enum Banner {
    static func text(lab: Lab, stateDir: String) -> String {
        let rows: [(address: String, hosts: String, shows: String)] = [
            (LabAddress.primary, "api.lab.test single.lab.test", "one certificate whatever the SNI (also IP SAN)"),
            (LabAddress.sniOnly, "sni.lab.test", "certificate by SNI; no SNI gets default.lab.test (HTTPS and gRPC TLS)"),
            (LabAddress.expired, "expired.lab.test", "certificate expired yesterday"),
            (LabAddress.replica, "api.lab.test", "second IP for api.lab.test, like 127.0.0.2 but HTTP/1.1 only (gRPC's HTTP/1.1 case)"),
            (LabAddress.ipv6, "api.lab.test", "IPv6, same as 127.0.0.2"),
            (LabAddress.handshakeCloser, "api.lab.test", "HTTPS reads the ClientHello, then hangs up; HTTP serves"),
            (LabAddress.impostor, "api.lab.test", "like 127.0.0.2, but no map lists it: what the lying resolver adds"),
            (LabAddress.staleEdge, "api.lab.test", "valid certificate under a second key: a stale edge (see api.pem, stale.pem)"),
            (LabAddress.noForwardSecrecy, "api.lab.test", "TLS 1.2, AES128-GCM-SHA256 only (RSA, no forward secrecy): ATS refuses"),
            (LabAddress.tls12, "api.lab.test", "TLS 1.2, ECDHE-ECDSA-AES128-GCM-SHA256 only: ATS accepts"),
            (LabAddress.fastRankEdge, "rank.lab.test", "like 127.0.0.2; a TCP connect on the rank port completes at once"),
            (LabAddress.slowRankEdge, "rank.lab.test", "like 127.0.0.2; a TCP connect on the rank port takes about 1 s"),
            (LabAddress.deadRankEdge, "rank.lab.test", "nothing listens (HTTP, HTTPS, rank port): connects are refused"),
        ]
        let width = rows.map(\.hosts.count).max() ?? 0
        var text = "runner lab: HTTP on port \(lab.httpPort), HTTPS on port \(lab.httpsPort), rank (bare TCP) on port "
        text += "\(lab.rankPort), gRPC TLS on port \(lab.grpcTLSPort), gRPC h2c on port \(lab.grpcPlainPort), CA \(stateDir)/ca.pem\n\n"
        text += "  " + pad("address", 11) + pad("hosts", width + 2) + "shows\n"
        for row in rows {
            text += "  " + pad(row.address, 11) + pad(row.hosts, width + 2) + row.shows + "\n"
        }
        text += "\nHTTPS offers h2 and http/1.1 by ALPN (\(LabAddress.replica): http/1.1 only); HTTP is HTTP/1.1\n"
        text += "endpoints: /echo /status/{code} /delay/{ms} /bytes/{n} /json /headers?Name=Value /markup\n"
        text += "  /redirect/{301|302|303|307|308}?to=URL[&set-cookie=C] /redirect-chain/{n} /redirect-loop\n"
        text += "  /cookies/set?name=value[&attrs=Path%3D%2F] /cookies\n"
        text += "  POST /session/login {\"user\",\"password\":\"\(LabSession.password)\"} then /session/me (token or cookie, same address)\n"
        text += "hostile (HTTP/1.x only, 501 on h2): "
        text += HostileEndpoints.names.map { "/hostile/\($0)" }.joined(separator: " ") + "\n"
        text += "httpdns (any address or port; names in LabDNS, faults empty/garbage/error/slow/hang.lab.test):\n"
        for format in LabDNS.Format.allCases {
            text += "  " + pad(format.rawValue, 11) + LabDNS.urlTemplate(format, port: lab.httpPort) + "\n"
        }
        text += "dns (UDP and TCP, port \(lab.dnsPort)): honest \(LabResolver.honest.address) (the LabDNS table), lying "
        text += "\(LabResolver.lying.address) (\(LabResolver.liedAbout) → \(LabResolver.lie.joined(separator: ", "))), "
        text += "silent \(LabResolver.silent.address) (never answers)\n"
        text += "  rank.lab.test: every httpdns format answers dead, slow, fast (and ::1); fallback.lab.test: no record "
        text += "by httpdns, \(LabAddress.primary) \(LabAddress.replica) ::1 by the dns servers\n"
        text += "  signed and encrypted: volcengine secret \(LabDNS.volcengineSecret), alibaba /sign_d secret "
        text += "\(LabDNS.alibabaSecret), dnspod alg=des|aes key \(LabDNS.dnspodKey)\n"
        text += "grpc (TLS port \(lab.grpcTLSPort): \(LabAddress.primary) and \(LabAddress.sniOnly), ALPN h2; h2c port "
        text += "\(lab.grpcPlainPort): \(LabAddress.primary); HTTP/1.1 only: \(LabAddress.replica) HTTPS port \(lab.httpsPort)):\n"
        text += "  \(LabGRPC.healthMethod): \"\" payments SERVING, inventory NOT_SERVING, other NOT_FOUND (Trailers-Only)\n"
        text += "  \(LabGRPC.echoMethod) (the request's bytes back), \(LabGRPC.failMethod) "
        text += "(UNAVAILABLE \"\(LabGRPC.failMessage)\"), other methods UNIMPLEMENTED\n"
        text += "try: curl --cacert \(stateDir)/ca.pem --resolve sni.lab.test:\(lab.httpsPort):\(LabAddress.sniOnly) "
        text += "https://sni.lab.test:\(lab.httpsPort)/echo\n"
        text += "ready: \(stateDir)/ready; stop with Ctrl-C\n"
        return text
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
