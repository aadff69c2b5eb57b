// libFuzzer target: arbitrary bytes as an Android Network Security Config, read as a release
// and as a debuggable build (RunnerAppTrust's `AndroidNetworkSecurityConfig.parse`). The checks
// are in AppTrustSupport/AppTrustHarness.swift; besides, reading twice gives the same result.

import Foundation
import RunnerAppTrust

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNetworkSecurityConfig(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let path = "res/xml/network_security_config.xml"
    for debuggable in [false, true] {
        let first = read(data, path: path, debuggable: debuggable)
        let second = read(data, path: path, debuggable: debuggable)
        guard second == first else { AppTrustHarness.finding("two reads differ: \(first) and \(second)") }
        switch first {
        case .success(let config):
            if AppTrustHarness.printResults { AppTrustHarness.show("read: \(config.domainConfigs.count) domain-config(s)") }
            AppTrustHarness.checkPolicies { host in
                [22, 28, 34].map { config.policy(for: host, targetSDK: $0, now: AppTrustHarness.now) }
            }
        case .failure(let error):
            if AppTrustHarness.printResults { AppTrustHarness.show(error.rendered) }
            AppTrustHarness.check(error, path: path, data: data, binary: false)
        }
    }
    return 0
}

private func read(_ data: Data, path: String, debuggable: Bool) -> Result<AndroidNetworkSecurityConfig, AppTrustFileError> {
    do throws(AppTrustFileError) {
        return .success(try AndroidNetworkSecurityConfig.parse(data, path: path, debuggable: debuggable, rawDirectory: nil))
    } catch {
        return .failure(error)
    }
}
