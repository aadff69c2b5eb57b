// libFuzzer target: arbitrary bytes as the body of an Alibaba /v2/d answer (HTTP 200, then 403/502):
// the envelope, its data as an object or a string holding one, and the answers inside.
// The checks are in Support/HTTPDNSHarness.swift.

import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAlibabaV2Answer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HTTPDNSHarness.run(.alibabaV2, data, size)
}
