import ArgumentParser
import Foundation
import RunnerState

/// `runner state`: what a state file remembers (`show`), and forgetting a retired edge (`forget`).
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show or edit what a state file (--state) remembers of the HTTPDNS services' answers.",
        subcommands: [StateShow.self, StateForget.self])
}

/// The state file both subcommands read: it must exist (they never create one).
struct StateFileOption: ParsableArguments {
    @Option(help: ArgumentHelp("The state file, as given to runner --state.", valueName: "FILE"))
    var state = "runner.db"

    /// The file opened (only to read it for `show`), or exit 2 with its name and why not.
    func open(toRead: Bool = false) throws -> AddressMemory {
        guard FileManager.default.fileExists(atPath: state) else {
            Console.error("error: state file '\(state)': no such file; a run with --state \(state) creates it")
            throw ExitCode(ExitStatus.invalidInput)
        }
        do throws(StateStoreError) {
            return try toRead ? AddressMemory.openToRead(path: state) : AddressMemory.open(path: state)
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
    }
}

struct StateShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print every address remembered: plan, map, host, client, address, first and last returned.")

    @OptionGroup var file: StateFileOption

    @Flag(help: "Print a JSON array of objects (plan, map, host, client, address, family, first_returned, last_returned).")
    var json = false

    func run() throws {
        let memory = try file.open(toRead: true)
        let rows: [ReturnedAddress]
        do throws(StateStoreError) {
            rows = try memory.all()
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
        Console.output(json ? StateTable.json(rows) : StateTable.text(rows, file: file.state))
    }
}

struct StateForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget addresses (edges retired for good): their retained checks stop; returned again, they are recorded afresh.")

    @OptionGroup var file: StateFileOption

    @Argument(help: ArgumentHelp("Addresses to forget, as the service returned them.", valueName: "ADDRESS"))
    var addresses: [String]

    func validate() throws {
        guard !addresses.isEmpty else { throw ValidationError("give at least one ADDRESS to forget") }
    }

    func run() throws {
        let memory = try file.open()
        do throws(StateStoreError) {
            let removed = try memory.forget(addresses)
            Console.output("forgot \(removed) record\(removed == 1 ? "" : "s") of \(addresses.joined(separator: ", ")) in \(file.state)")
        } catch {
            Console.error("error: \(error.description)")
            throw ExitCode(ExitStatus.invalidInput)
        }
    }
}

/// The state's rows as `runner state show` prints them.
enum StateTable {
    /// A table with a header, one row per address; a line saying so when there is none.
    static func text(_ rows: [ReturnedAddress], file: String) -> String {
        guard !rows.isEmpty else { return "\(file): nothing remembered yet" }
        let header = ["PLAN", "MAP", "HOST", "CLIENT", "ADDRESS", "FIRST RETURNED", "LAST RETURNED"]
        let cells = rows.map { row in
            [row.plan, row.map, row.host, row.client ?? "-", row.address, timestamp(row.firstReturned), timestamp(row.lastReturned)]
        }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + cells.map(line)).joined(separator: "\n")
    }

    /// A JSON array of objects, every key present (`client` null for this machine).
    static func json(_ rows: [ReturnedAddress]) -> String {
        struct Row: Encodable {
            var plan, map, host: String
            var client: String?
            var address: String
            var family: Int
            var firstReturned, lastReturned: String

            enum CodingKeys: String, CodingKey {
                case address, client, family, host, map, plan
                case firstReturned = "first_returned"
                case lastReturned = "last_returned"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(address, forKey: .address)
                try container.encode(client, forKey: .client)
                try container.encode(family, forKey: .family)
                try container.encode(firstReturned, forKey: .firstReturned)
                try container.encode(host, forKey: .host)
                try container.encode(lastReturned, forKey: .lastReturned)
                try container.encode(map, forKey: .map)
                try container.encode(plan, forKey: .plan)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let values = rows.map {
            Row(plan: $0.plan, map: $0.map, host: $0.host, client: $0.client, address: $0.address, family: $0.family,
                firstReturned: timestamp($0.firstReturned), lastReturned: timestamp($0.lastReturned))
        }
        return (try? encoder.encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
