// libFuzzer target: arbitrary bytes as the body of a dnspod HTTPDNS answer (HTTP 200, then 403/502).
// The checks are in Support/HTTPDNSHarness.swift.

import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNSPodAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HTTPDNSHarness.run(.dnspod, data, size)
}
