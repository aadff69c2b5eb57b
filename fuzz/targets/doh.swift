// libFuzzer target: arbitrary bytes as an RFC 8484 answer (a DNS message) to an A query, then to
// an AAAA query. libresolv reads the message; a finding is a crash, a hang, a leak, or a result
// that breaks the parser's promises (checked in Support/DoHHarness.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDoHMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    DoHHarness.run(data, size)
}
