import Foundation
import Testing

@testable import RunnerAppTrust

/// Inputs the fuzz targets (fuzz/targets/nsc.swift, info-plist.swift) found, reduced to what each shows.
@Suite("App trust fuzz regressions")
struct AppTrustFuzzRegressionTests {
    /// XMLParser on Linux traps on an element name that is not UTF-8 (fuzz/regressions/nsc/element-name-not-utf8).
    @Test("an element name that is not UTF-8 is an error at its byte, not a trap")
    func elementNameNotUTF8() {
        let bytes = Data([0x3C, 0x61, 0xEE, 0x6E, 0x66, 0x2F, 0x3E])  // <a\xEEnf/>
        do {
            _ = try AndroidNetworkSecurityConfig.parse(bytes, path: "nsc.xml", debuggable: true, rawDirectory: nil)
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "nsc.xml:1:3: error: a byte that is not UTF-8 (the file must be UTF-8)")
        }
    }

    /// The same in an XML Info.plist (fuzz/regressions/info-plist/key-name-not-utf8).
    @Test("a plist element name that is not UTF-8 is an error at its byte")
    func plistElementNotUTF8() {
        var bytes = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<k".utf8)
        bytes.append(0xEE)
        bytes.append(contentsOf: Array("y>NSAppTransportSecurity</k".utf8) + [0xEE] + Array("y>\n</dict>\n</plist>\n".utf8))
        do {
            _ = try IOSTrustSettings.parse(bytes, path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:4:4: error: a byte that is not UTF-8 (the file must be UTF-8)")
        }
    }
}

extension AppTrustFuzzRegressionTests {
    /// XMLParser on Linux calls strlen on NULL for `<?name?>` (fuzz/regressions/*/processing-instruction-without-data).
    @Test("a processing instruction without data is an error at its `<?`, not a crash")
    func processingInstructionWithoutData() {
        do {
            _ = try AndroidNetworkSecurityConfig.parse(
                Data("<network-security-config>\n  <?a?>\n</network-security-config>\n".utf8), path: "nsc.xml", debuggable: false,
                rawDirectory: nil)
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "nsc.xml:2:3: error: a processing instruction without data (<?name?>), which XMLParser cannot read")
        }
        do {
            _ = try IOSTrustSettings.parse(Data("<?xml version=\"1.0\"?>\n<plist>\n<dict>\n\t<?target?>\n</dict>\n</plist>\n".utf8), path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:4:2: error: a processing instruction without data (<?name?>), which XMLParser cannot read")
        }
    }

    @Test("a processing instruction with data is read")
    func processingInstructionWithData() throws {
        let xml = "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\"?>\n<network-security-config>\n  <base-config/>\n</network-security-config>\n"
        let config = try AndroidNetworkSecurityConfig.parse(Data(xml.utf8), path: "nsc.xml", debuggable: false, rawDirectory: nil)
        #expect(config.baseConfig?.line == 4)
    }
}

extension AppTrustFuzzRegressionTests {
    /// PropertyListSerialization on Linux crashes bridging a binary plist `{a: set{true}}`
    /// (fuzz/regressions/info-plist/binary-plist-holding-a-set): binary plists are read with PropertyListDecoder.
    @Test("a binary plist holding a set is an error, not a crash")
    func binaryPlistHoldingASet() {
        let hex = "62706c6973743030d101025161c10309080b0d0f0000000000000101000000000000000400000000000000000000000000000010"
        let bytes = Data(stride(from: 0, to: hex.count, by: 2).compactMap { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16)
        })
        #expect(bytes.count == 52)
        do {
            _ = try IOSTrustSettings.parse(bytes, path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:1:1: error: not a property list Foundation can read (binary)")
        }
    }
}

extension AppTrustFuzzRegressionTests {
    /// PropertyListSerialization crashes on `{a: set{true}, a: true}` even though it keeps the first
    /// `a`: a decoder vetting the file first may keep the second and pass it. Binary plists are
    /// read by PropertyListDecoder alone (fuzz/regressions/info-plist/binary-plist-duplicate-key-shadowing-a-set).
    @Test("a binary plist whose duplicate key shadows a set reads without a crash")
    func binaryPlistDuplicateKeyShadowingASet() {
        let hex = "62706c6973743030d2010102035161c10309080d0f110000000000000101000000000000000400000000000000000000000000000012"
        let bytes = Data(stride(from: 0, to: hex.count, by: 2).compactMap { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16)
        })
        for _ in 0..<20 {
            // Either `a`: the set (an error) or true (read); never a crash.
            let outcome = Result { () throws(AppTrustFileError) in try IOSTrustSettings.parse(bytes, path: "Info.plist") }
            if case .failure(let error) = outcome {
                #expect(error.description == "Info.plist:1:1: error: not a property list Foundation can read (binary)")
            }
        }
    }
}

extension AppTrustFuzzRegressionTests {
    /// PropertyListDecoder follows a binary plist's cycle until the stack overflows, and expands an
    /// object referred to again and again (fuzz/regressions/info-plist/binary-plist-cycle,
    /// binary-plist-repeated-objects: minutes): the decode stops past its limits.
    @Test("a binary plist whose dictionary holds itself is an error at once")
    func binaryPlistCycle() {
        let hex = "62706c6973743030d101005161080b000000000000010100000000000000020000000000000000000000000000000d"
        let bytes = Data(stride(from: 0, to: hex.count, by: 2).compactMap { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16)
        })
        do {
            _ = try IOSTrustSettings.parse(bytes, path: "Info.plist")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.description == "Info.plist:1:1: error: a binary plist of more than 100000 values or 64 levels (an object it refers to again counted each time)")
        }
    }
}
