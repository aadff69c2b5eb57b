// What the state file costs a run at issue 34's scale: 1,000 hosts × 30 client populations × 10
// addresses (300,000 rows). A first run fills the file; then each round is one run as the engine
// makes it (a recording per plan, every answer compared and queued, the writes waited for) with
// the same answers but for 1 in 100, which swaps an address. Prints each figure and the median
// round's CPU time (user + system, every thread: the writer's too) against the 0.2 s budget,
// its wall time beside (which moves with the shared machine's load); exits 1 when the median
// CPU time is over it.
// Usage: state-bench FILE [ROUNDS]
import Foundation
import RunnerResults
import RunnerState

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: state-bench FILE [ROUNDS]\n".utf8))
    exit(2)
}
let path = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let (hosts, clients, addressesPerAnswer) = (Int(ProcessInfo.processInfo.environment["STATE_HOSTS"] ?? "") ?? 1_000, 30, 10)
let budget = 0.2
let window: Duration = .seconds(86_400)

struct Answer {
    var host: String
    var client: String
    var addresses: [String]
}

// Made before any clock starts: the engine has its answers' text already.
var answers: [Answer] = []
answers.reserveCapacity(hosts * clients)
for host in 0..<hosts {
    for client in 0..<clients {
        answers.append(Answer(
            host: "h\(host).bench.test", client: "population-\(client)",
            addresses: (0..<addressesPerAnswer).map { "10.\(client).\(host / 250 * 10 + $0).\(host % 250)" }))
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The process's CPU time so far, user and system, all threads.
func cpuSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One run: every answer, then the writes waited for; its wall time, the part after the last
/// answer (waiting for the writes), its CPU time, and how many retained it found.
func run(_ answers: [Answer], into memory: AddressMemory, at date: Date) throws -> (Double, Double, Double, Int) {
    var retained = 0
    let clock = ContinuousClock()
    let cpuStart = cpuSeconds()
    let start = clock.now
    let recording = memory.recording(plan: "bench")
    for answer in answers {
        retained += try recording.answer(
            map: "dnspod", host: answer.host, client: answer.client, addresses: answer.addresses, at: date, window: window
        ).count
    }
    let answered = clock.now
    let written = memory.flush()
    guard written.isComplete else { throw StateStoreError(path: written.file, reason: written.summary()) }
    let end = clock.now
    return (seconds(end - start), seconds(end - answered), cpuSeconds() - cpuStart, retained)
}

do {
    try? FileManager.default.removeItem(atPath: path)
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let memory = try AddressMemory.open(path: path)
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let (first, _, _, _) = try run(answers, into: memory, at: start)
    print(String(format: "state: first run (an empty file): %d answers, %d rows written: %.3f s", answers.count, answers.count * addressesPerAnswer, first))
    var times: [Double] = []
    var cpuTimes: [Double] = []
    for round in 1...rounds {
        // 1 answer in 100 swaps its last address for one of this round's.
        for index in stride(from: round, to: answers.count, by: 100) {
            answers[index].addresses[addressesPerAnswer - 1] = "10.\(200 + round).\(index / 250 % 250).\(index % 250)"
        }
        let (time, waited, cpu, retained) = try run(answers, into: memory, at: start.addingTimeInterval(Double(round) * 300))
        times.append(time)
        cpuTimes.append(cpu)
        print(String(format: "state: run %d: %d answers (%d changed), %d retained checks: CPU %.3f s, wall %.3f s (%.3f s of it waiting for the writes after the last answer)",
            round, answers.count, answers.count / 100, retained, cpu, time, waited))
    }
    let rows = try memory.all().count
    let median = cpuTimes.sorted()[cpuTimes.count / 2]
    let medianWall = times.sorted()[times.count / 2]
    let verdict = median <= budget ? "meets" : "MISSES"
    print(String(format: "state: %d rows in the file; a run reads and updates them in %.3f s of CPU (median of %d; budget %.1f s, %.2fx of it): %@; wall %.3f s",
        rows, median, rounds, budget, median / budget, verdict, medianWall))
    exit(median <= budget ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("state-bench: \(error)\n".utf8))
    exit(2)
}
