import Dispatch
import Foundation

/// How many cores read one plan's scenario list.
enum PlanParallelism: Sendable, Equatable {
    /// One piece per core for a plan worth it (a list of at least two 128 KiB pieces).
    case automatic
    /// The whole plan on the calling thread.
    case oneCore
    /// This many pieces whatever the plan's size (tests; small plans have few items to cut at).
    case pieces(Int)
}

/// Reads a large plan on several cores: the top level first, then each piece of the scenario
/// list parsed and decoded on a thread of its own (`ScenarioListSplit` proposes the pieces).
///
/// It only returns a plan that reading the file whole returns too, equal in every field.
/// Where it cannot be sure of that, it returns nil and the caller reads the plan whole, so every
/// error message still comes from the one-core path:
/// * any error in any part (libyaml's or the decoder's);
/// * an alias in the list (its anchor may be in another piece, and the alias budget counts
///   over the whole file);
/// * a top level that does not show `scenarios:` as a plain top-level key followed by nothing
///   (the list was cut out of it);
/// * a piece whose root is not a block list at the expected line and column, or holds another
///   number of items than its lines showed.
enum ParallelPlanLoad {
    /// Pieces below this size are not worth a thread of their own.
    static let minimumPieceBytes = 128 << 10
    /// At most this many pieces, however many cores: each costs a parser and a copy of the
    /// top level's decoder.
    static let maximumPieces = 8

    /// The plan, or nil when the caller must read the plan whole (see above).
    static func load(
        _ source: SourceText, variables: [String: String], environment: [String: String], parallelism: PlanParallelism
    ) -> Plan? {
        let wanted: Int
        let minimumBytes: Int
        switch parallelism {
        case .oneCore:
            return nil
        case .automatic:
            wanted = min(ProcessInfo.processInfo.activeProcessorCount, maximumPieces)
            minimumBytes = minimumPieceBytes
        case .pieces(let count):
            wanted = count
            minimumBytes = 1
        }
        let found: (ScenarioListSplit, [UInt8])? = source.bytes.withUnsafeBufferPointer { bytes in
            guard let split = ScenarioListSplit(bytes, pieces: wanted, minimumPieceBytes: minimumBytes) else { return nil }
            return (split, split.head(of: bytes))
        }
        guard let (split, headBytes) = found else { return nil }

        // The top level, read without the list: the `scenarios:` key is left with no value.
        let head = SourceText(file: source.file, bytes: headBytes)
        let headWindow = ParseWindow(gapAt: split.firstLine, gapLines: split.lineCount)
        guard let document = try? YAMLParser(source: head, knownTexts: PlanKey.texts, window: headWindow).parse(),
              document.errors.isEmpty, document.rootIsBlock, let root = document.root
        else { return nil }
        // The top level's nodes (`topLevel.fields`) do not keep their tree alive.
        defer { withExtendedLifetime(document) {} }
        let decoder = PlanDecoder(file: source.file, environment: environment)
        guard let topLevel = decoder.decodeTopLevel(root, variables: variables), decoder.errors.isEmpty,
              let entry = topLevel.fields[.scenarios], entry.keyMark == YAMLMark(line: split.keyLine, column: 1),
              case .scalar("", .plain) = entry.value.content, entry.value.tag == nil
        else { return nil }

        // The pieces, each on its own thread with its own parser and decoder, each writing its
        // scenarios straight into its part of the plan's list (no list per piece to join).
        let pieces = split.pieces
        let decoders = pieces.map { _ in decoder.pieceDecoder() }
        let outcomes = PieceOutcomes(count: pieces.count)
        let total = pieces.reduce(0) { $0 + $1.items }
        let scenarios = [Scenario](unsafeUninitializedCapacity: total) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            let destination = UncheckedSendable(base)
            let work = UncheckedSendable { (index: Int) in
                outcomes[index] = decodePiece(
                    pieces[index], of: source, listIndent: split.indent, defaults: topLevel.defaults,
                    decoder: decoders[index], into: destination.value + pieces[index].itemsBefore)
            }
            DispatchQueue.concurrentPerform(iterations: pieces.count) { index in work.value(index) }
            if outcomes.allComplete, outcomes.namesAreDistinct {
                initialized = total
            } else {
                // Back to the one-core path: undo what the pieces wrote.
                for index in pieces.indices {
                    (base + pieces[index].itemsBefore).deinitialize(count: outcomes[index]?.written ?? 0)
                }
            }
        }
        guard scenarios.count == total else { return nil }
        for piece in decoders { decoder.adoptSecrets(of: piece) }
        let plan = decoder.plan(topLevel, scenarios: scenarios)
        // A flow error (an `after` that names no scenario…): the one-core path reports it.
        return decoder.errors.isEmpty ? plan : nil
    }

    private struct PieceOutcome {
        /// Scenarios written to the piece's part of the list (to undo on failure).
        var written = 0
        /// Each scenario's name, by where it is written.
        var names: [String: YAMLMark] = [:]
        /// Parsed and decoded with no error, one scenario written per item.
        var complete = false
    }

    /// Parses and decodes one piece, writing its scenarios from `destination` on; it is complete
    /// only when nothing calls for the one-core path.
    private static func decodePiece(
        _ piece: ScenarioListSplit.Piece, of source: SourceText, listIndent: Int, defaults: SettingsLayer,
        decoder: PlanDecoder, into destination: UnsafeMutablePointer<Scenario>
    ) -> PieceOutcome {
        var outcome = PieceOutcome()
        // The list sits in the top-level mapping: one collection open around it.
        let window = ParseWindow(bytes: piece.bytes, firstLine: piece.firstLine, depth: 1)
        // Each item decoded as soon as it is parsed, in a tree of its own (no tree of the piece).
        var items = 0
        var written = 0
        outcome.names.reserveCapacity(piece.items)
        let document = try? YAMLParser(source: source, knownTexts: PlanKey.texts, window: window, itemByItem: true)
            .parseItems { item in
                // More items than the piece's lines showed: not the list it was cut as.
                guard items < piece.items else { return false }
                items += 1
                decoder.decodeScenarioItem(
                    item, number: piece.itemsBefore + items, defaults: defaults, names: &outcome.names
                ) { scenario in
                    // At most one scenario per item, and never more than the piece's items.
                    guard written < items else { return }
                    (destination + written).initialize(to: scenario)
                    written += 1
                }
                // An error sends the plan to the one-core path: no use reading on.
                return decoder.errors.isEmpty
            }
        outcome.written = written
        // The root's node does not keep its tree alive.
        defer { withExtendedLifetime(document) {} }
        guard let document, document.errors.isEmpty, document.aliases == 0, document.rootIsBlock, let root = document.root,
              root.mark == YAMLMark(line: piece.firstLine + 1, column: listIndent + 1),
              case .sequence = root.content, items == piece.items
        else { return outcome }
        outcome.complete = decoder.errors.isEmpty && written == piece.items
        return outcome
    }

    /// One slot per piece, each written by one thread only, read after they have all finished.
    private final class PieceOutcomes: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<PieceOutcome?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        subscript(index: Int) -> PieceOutcome? {
            get { slots[index] }
            set { slots[index] = newValue }
        }

        var allComplete: Bool { slots.allSatisfy { $0?.complete == true } }

        /// No scenario name in two pieces (each piece has checked its own).
        var namesAreDistinct: Bool {
            for index in slots.indices.dropFirst() {
                guard let names = slots[index]?.names else { return false }
                for earlier in 0..<index {
                    guard let earlierNames = slots[earlier]?.names else { return false }
                    if names.keys.contains(where: { earlierNames[$0] != nil }) { return false }
                }
            }
            return true
        }
    }
}

/// Hands work that is safe by construction (each thread touches only its own piece) to
/// `concurrentPerform`, whose closure must be Sendable.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
