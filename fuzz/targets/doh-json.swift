// libFuzzer target: arbitrary bytes as the body of a doh-json HTTPDNS answer (HTTP 200, then 403/502).
// The checks are in Support/HTTPDNSHarness.swift.

import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDoHAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HTTPDNSHarness.run(.dohJSON, data, size)
}
