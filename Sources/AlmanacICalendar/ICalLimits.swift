import AlmanacCore

/// Limits that keep a hostile file from costing unbounded memory.
public struct ICalLimits: Hashable, Sendable {
    /// Longest logical (unfolded) line, in bytes.
    public var maxLineBytes: Int
    /// Deepest component nesting (VCALENDAR > VEVENT > VALARM is 3).
    public var maxDepth: Int
    /// Most components in one file.
    public var maxComponents: Int

    public init(maxLineBytes: Int = 4 * 1024 * 1024, maxDepth: Int = 16, maxComponents: Int = 5_000_000) {
        self.maxLineBytes = maxLineBytes
        self.maxDepth = maxDepth
        self.maxComponents = maxComponents
    }

    public static let `default` = ICalLimits()
}
