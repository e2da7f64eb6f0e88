/// `--shard K/N`: the share K (0 ≤ K < N) of a batch, for engines that give each worker an index
/// (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`) rather than a list. A file belongs to the
/// share its output path hashes to (FNV-1a), so the shares do not depend on the order or number
/// of the other files (workers that list a folder at different moments still agree), and inputs
/// that would write one output fall in the same share, where the later fails as in one batch.
public struct BatchShard: Hashable, Sendable {
    public let index: UInt64
    public let count: UInt64

    /// `K/N`; nil for anything else or K ≥ N.
    public init?(_ argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = UInt64(parts[0]), let count = UInt64(parts[1]), count > 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the file with this key (its output path inside the output folder) is in the share.
    public func contains(_ key: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash % count == index
    }
}
