/// One part of a run split N ways (`--shard K/N`): which scenarios it holds follows from a
/// stable hash of each scenario's plan and name (see RunnerEngine's `Shard.holds`).
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// 1-based: `1...count`.
    public var index: Int
    public var count: Int

    /// The largest N accepted: more shards than CI jobs anyone runs, small enough to print.
    public static let maxCount = 10_000

    /// nil unless `1 <= index <= count <= maxCount`.
    public init?(index: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`, as the command line and the reports write it; nil for anything else.
    public init?(notation: some StringProtocol) {
        let parts = notation.split(separator: "/", omittingEmptySubsequences: false)
        // Digits only: `Int` alone would also take `+1`.
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
