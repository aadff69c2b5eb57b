import Foundation
import PlanFixtures
import Testing

@testable import RunnerReport
import RunnerResults

/// The spool that keeps a report's rendered results on disk until the run ends.
@Suite struct ReportSpoolTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = NSTemporaryDirectory() + "spool-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    /// Replays `suites` through a real file, as a report's `finish` does.
    private func replay(_ spool: ReportSpool, suites: Range<Int>, in directory: String) throws -> [String] {
        var replayed: [String] = []
        for suite in suites {
            let path = directory + "/out-\(suite)"
            try AtomicFile.write(to: path) { (output: inout FileOutput) throws(ReportWriteError) in
                _ = try spool.replay(suite: suite, separator: Array("|".utf8), into: &output)
            }
            replayed.append(try String(contentsOfFile: path, encoding: .utf8))
        }
        return replayed
    }

    @Test func fragmentsComeBackPerPlanInPlanOrderWhateverOrderTheyArrived() throws {
        try withDirectory { directory in
            let spool = try ReportSpool(for: ReportTarget(path: directory + "/report.xml"))
            var positions: [ResultPosition] = []
            for suite in [0, 2] {  // plan 1 has no results at all
                for scenario in 0..<50 {
                    for slot in 0..<3 { positions.append(ResultPosition(suite: suite, scenario: scenario, slot: slot)) }
                }
            }
            var random = SeededGenerator(seed: SeededGenerator.seed(7, for: "spool order"))
            for position in positions.shuffled(using: &random) {
                spool.append(Array("\(position.suite).\(position.scenario).\(position.slot)".utf8), at: position)
            }
            let replayed = try replay(spool, suites: 0..<3, in: directory)
            func expected(_ suite: Int) -> String {
                positions.filter { $0.suite == suite }.map { "\($0.suite).\($0.scenario).\($0.slot)" }
                    .joined(separator: "|")
            }
            #expect(replayed == [expected(0), "", expected(2)])
        }
    }

    @Test func largeFragmentsSurviveTheFlushes() throws {
        try withDirectory { directory in
            let spool = try ReportSpool(for: ReportTarget(path: directory + "/report.json"))
            // 40 fragments of 20 KiB each: several flushes of the spool's 256 KiB buffer.
            let fragments = (0..<40).map { index in [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: 20_000) }
            for (index, fragment) in fragments.enumerated().reversed() {
                spool.append(fragment, at: ResultPosition(suite: 0, scenario: index, slot: 0))
            }
            let replayed = try replay(spool, suites: 0..<1, in: directory)
            let expected = fragments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|")
            #expect(replayed == [expected])
        }
    }

    @Test func replayReadsTheFileInLargePiecesWhateverTheOrderAndSizeOfTheFragments() throws {
        try withDirectory { directory in
            let spool = try ReportSpool(for: ReportTarget(path: directory + "/report.json"))
            // 400 fragments of 1 to 20 KiB, two of them larger than a read (1 MiB), arriving
            // nearly in plan order (shuffled within windows of 40, as parallel transfers finish)
            // and, for plan 1, in reverse: several reads, fragments across their edges, and
            // fragments that sit before the last read's start.
            var random = SeededGenerator(seed: SeededGenerator.seed(11, for: "spool reads"))
            func fragment(_ index: Int) -> [UInt8] {
                let size = index == 57 || index == 300 ? 1_500_000 : Int.random(in: 1_000...20_000, using: &random)
                return [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size)
            }
            let fragments = (0..<400).map(fragment)
            var arrivals: [(Int, ResultPosition)] = []
            for window in stride(from: 0, to: 400, by: 40) {
                arrivals += (window..<(window + 40)).shuffled(using: &random).map { ($0, ResultPosition(suite: 0, scenario: $0, slot: 0)) }
            }
            arrivals += (0..<50).reversed().map { ($0, ResultPosition(suite: 1, scenario: $0, slot: 0)) }
            for (index, position) in arrivals {
                spool.append(fragments[index], at: position)
            }
            let replayed = try replay(spool, suites: 0..<2, in: directory)
            let expected = fragments.map { String(decoding: $0, as: UTF8.self) }
            #expect(replayed[0] == expected.joined(separator: "|"))
            #expect(replayed[1] == expected[0..<50].joined(separator: "|"))
        }
    }

    /// Read a scenario at a time, as the HTML report lays them out: each call stops where the
    /// next scenario starts, the next goes on from there, through reads of the file.
    @Test func readingAScenarioAtATimeGoesOnWhereTheLastStopped() throws {
        try withDirectory { directory in
            let spool = try ReportSpool(for: ReportTarget(path: directory + "/report.html"))
            var positions: [ResultPosition] = []
            for scenario in 0..<30 {
                for slot in 0..<(scenario % 4) { positions.append(ResultPosition(suite: 0, scenario: scenario, slot: slot)) }
            }
            positions.append(ResultPosition(suite: 1, scenario: 0, slot: 0))
            var random = SeededGenerator(seed: SeededGenerator.seed(13, for: "spool scenarios"))
            for position in positions.shuffled(using: &random) {
                // 100 KiB each: the scenarios span several of the spool's 1 MiB reads.
                let text = "\(position.scenario).\(position.slot)|"
                spool.append(Array(text.utf8) + [UInt8](repeating: UInt8(ascii: "."), count: 100_000), at: position)
            }
            spool.seek(toSuite: 0)
            for scenario in 0..<30 {
                var read: [String] = []
                let count = try spool.read(while: { $0.suite == 0 && $0.scenario == scenario }) { position, fragment in
                    let text = String(decoding: fragment.prefix { $0 != UInt8(ascii: "|") }, as: UTF8.self)
                    #expect(text == "\(position.scenario).\(position.slot)")
                    #expect(fragment.count == text.utf8.count + 1 + 100_000)
                    read.append(text)
                }
                #expect(count == scenario % 4)
                #expect(read == (0..<(scenario % 4)).map { "\(scenario).\($0)" })
            }
            // The cursor is at plan 1 now.
            var rest: [ResultPosition] = []
            _ = try spool.read(while: { _ in true }) { position, _ in rest.append(position) }
            #expect(rest == [ResultPosition(suite: 1, scenario: 0, slot: 0)])
        }
    }

    @Test func theSpoolFileIsUnlinkedAtOnce() throws {
        try withDirectory { directory in
            let spool = try ReportSpool(for: ReportTarget(path: directory + "/report.xml"))
            spool.append(Array("x".utf8), at: ResultPosition(suite: 0, scenario: 0, slot: 0))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
            withExtendedLifetime(spool) {}
        }
    }

    @Test func aReportBesideAMissingDirectoryFailsBeforeTheRunSayingWhere() throws {
        let folder = "/nonexistent-\(UUID().uuidString)"
        let path = folder + "/report.xml"
        #expect {
            try JUnitReport(path: path, plans: [], redactor: Redactor(secrets: []))
        } throws: { error in
            (error as? ReportWriteError)?.description == "cannot write report '\(path)': directory '\(folder)' does not exist"
        }
        #expect {
            try JSONReport(path: path, plans: [], redactor: Redactor(secrets: []))
        } throws: { error in
            (error as? ReportWriteError)?.description == "cannot write report '\(path)': directory '\(folder)' does not exist"
        }
        #expect {
            try HTMLReport(path: path, plans: [], redactor: Redactor(secrets: []))
        } throws: { error in
            (error as? ReportWriteError)?.description == "cannot write report '\(path)': directory '\(folder)' does not exist"
        }
    }
}
