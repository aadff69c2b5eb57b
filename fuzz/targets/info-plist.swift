// libFuzzer target: arbitrary bytes as an Info.plist, XML or binary (RunnerAppTrust's
// `IOSTrustSettings.parse`), then the ATS/NSPinnedDomains and TrustKit policies of a few hosts
// on iOS 13, 16 and 17. The checks are in AppTrustSupport/AppTrustHarness.swift; besides, a
// binary plist's errors are at line 1 and reading an XML one twice gives the same result.

import Foundation
import RunnerAppTrust

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfoPlist(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    let path = "ios/Info.plist"
    let first = read(data, path: path)
    let second = read(data, path: path)
    // Not for a binary plist: PropertyListDecoder keeps either value of a key written twice
    // (RunnerAppTrust's PlistValue says why it is still the one to read them).
    guard second == first || data.starts(with: Array("bplist".utf8)) else {
        AppTrustHarness.finding("two reads differ: \(first) and \(second)")
    }
    switch first {
    case .success(let settings):
        if AppTrustHarness.printResults {
            AppTrustHarness.show("read: \(settings.exceptionDomains.count) exception(s), \(settings.pinnedDomains.count) pinned")
        }
        AppTrustHarness.checkPolicies { host in
            [13, 16, 17].flatMap { version in
                [settings.policy(for: host, iOSVersion: version)]
                    + (settings.trustKitPolicy(for: host, iOSVersion: version, now: AppTrustHarness.now).map { [$0] } ?? [])
            }
        }
    case .failure(let error):
        if AppTrustHarness.printResults { AppTrustHarness.show(error.rendered) }
        AppTrustHarness.check(error, path: path, data: data, binary: data.starts(with: Array("bplist".utf8)))
    }
    return 0
}

private func read(_ data: Data, path: String) -> Result<IOSTrustSettings, AppTrustFileError> {
    do throws(AppTrustFileError) {
        return .success(try IOSTrustSettings.parse(data, path: path))
    } catch {
        return .failure(error)
    }
}
