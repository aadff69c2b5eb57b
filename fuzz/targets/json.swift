// libFuzzer target: the `format: json` answer mapping. The input's first line is the `ips`
// JSONPath (`[*]` allowed; `$.ips[*]` when it does not parse), the rest the body of the
// answer (HTTP 200, then 403/502); `ipv6` and `ttl` read fixed paths. So both the path parser
// and the mapping of any JSON through any path are searched. The checks are in
// Support/HTTPDNSHarness.swift.

import Foundation
@testable import RunnerPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { UnsafeBufferPointer(start: $0, count: size) }.map(Array.init) ?? []
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? -1
    let pathText = newline >= 0 ? String(decoding: bytes[..<newline], as: UTF8.self) : ""
    let fallback = JSONPath(components: [.member("ips"), .everyElement], text: "$.ips[*]")
    let ips = (try? JSONPathParser.parse(pathText, allowingEveryElement: true).get()) ?? fallback
    let mapping = JSONAnswerMapping(
        ips: ips, ipv6: JSONPath(components: [.member("ipv6"), .everyElement], text: "$.ipv6[*]"),
        ttl: JSONPath(components: [.member("ttl")], text: "$.ttl"))
    let body = Array(bytes[(newline + 1)...])
    return body.withUnsafeBufferPointer { buffer in
        HTTPDNSHarness.run(.json(mapping), buffer.baseAddress, buffer.count)
    }
}
