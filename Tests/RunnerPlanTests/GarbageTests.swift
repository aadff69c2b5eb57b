import Foundation
import PlanFixtures
import RunnerPlan
import Testing

@Suite("Garbage input")
struct GarbageTests {
    /// Every error names the file (or, for unreadable files, has no location at all).
    private func checkErrors(_ errors: [PlanError], path: String) {
        #expect(!errors.isEmpty)
        for error in errors {
            if let location = error.location {
                #expect(location.file == path)
                #expect(location.line >= 1)
                #expect(location.column >= 1)
            }
            #expect(!error.message.isEmpty)
        }
    }

    @Test("random bytes of several sizes give an error, never a crash", arguments: [1, 2, 3, 16, 255, 4096, 65536, 1 << 20])
    func randomBytes(size: Int) throws {
        let workspace = try PlanWorkspace()
        var generator = SeededGenerator(seed: UInt64(size) &* 7919)
        for round in 0..<4 {
            var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half the rounds are random ASCII text, which gets past the UTF-8 check into libyaml.
            if round % 2 == 1 { bytes = bytes.map { 0x20 + $0 % 0x5F } }
            let path = try workspace.write("garbage-\(round).yaml", bytes: bytes)
            checkErrors(loadErrors(path), path: path)
        }
    }

    @Test("random YAML-ish token soup never crashes")
    func tokenSoup() throws {
        let workspace = try PlanWorkspace()
        let tokens = [
            "version: 1\n", "scenarios:\n", "- ", "  ", "    ", "\n", ": ", "[", "]", "{", "}", ", ", "&a ", "*a",
            "&b ", "*b", "<<: ", "!!str ", "!x ", "'", "\"", "|\n", ">\n", "? ", "---\n", "...\n", "%YAML 1.2\n",
            "\t", "#c", "${x}", "${env:", "${secret:S}", "$${", "name: n", "request:", "url: http://h/", "\\",
            "é", "😀", "\r\n", "~", "null", "true", "10s", "-1", "0x1F", "expect:", "status: ", "headers: ",
        ]
        var generator = SeededGenerator(seed: 42)
        for round in 0..<300 {
            let count = Int.random(in: 1...60, using: &generator)
            let text = (0..<count).map { _ in tokens.randomElement(using: &generator) ?? "" }.joined()
            let path = try workspace.write("soup-\(round).yaml", text)
            do {
                _ = try PlanLoader.load(path: path, environment: ["S": "s"])
            } catch {
                checkErrors(error.errors, path: path)
            }
        }
    }

    @Test("a 10 MB file gives an error, never a crash")
    func tenMegabytes() throws {
        let workspace = try PlanWorkspace()
        var generator = SeededGenerator(seed: 10)
        let size = 10 << 20
        let binary = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let binaryPath = try workspace.write("big.bin", bytes: binary)
        checkErrors(loadErrors(binaryPath), path: binaryPath)

        // Text that libyaml must read to the end: one long, valid-looking plan with a mistake at the end.
        var text = "version: 1\nscenarios:\n"
        let scenario = "  - name: s%d\n    request: {url: \"http://api.example.com/%d\"}\n"
        var index = 0
        while text.utf8.count < size {
            text += String(format: scenario, index, index)
            index += 1
        }
        text += "  - name: last\n    request: {url: \"http://api.example.com/\"\n"
        let textPath = try workspace.write("big.yaml", text)
        let errors = loadErrors(textPath)
        checkErrors(errors, path: textPath)
        #expect(errors.count == 1)
        #expect(errors.first?.message.hasPrefix("invalid YAML") == true)
    }
}
