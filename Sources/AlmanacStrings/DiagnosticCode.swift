/// A diagnostic's stable, documented code (`ics.broken-line`), which is also its message's key in
/// Locales/Almanac. Each module's generated message table declares its codes as static members
/// (`.icsBrokenLine`, `.outputExists`); logic compares codes with those, so a renamed key is a
/// compile error rather than a branch that is never taken.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A code written out: a plugin's own (`todotxt.bad-date`), or a test's expectation.
    public init(stringLiteral value: String) { rawValue = value }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Whether the code is one of `family`'s (`output` for `output.exists`).
    public func isIn(_ family: Family) -> Bool {
        rawValue.utf8.count > family.rawValue.utf8.count && rawValue.hasPrefix(family.rawValue + ".")
    }

    /// The families of codes that logic treats alike.
    public struct Family: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Problems writing an output: they name the output, and the exit status says so.
        public static let output = Family(rawValue: "output")
    }
}

extension DiagnosticCode {
    /// Thrown when bytes a reader took for UTF-8 are not (it converts the file and starts again);
    /// never shown, so it has no message.
    package static let internalNotUTF8: DiagnosticCode = "internal.not-utf8"
    /// Thrown to a producer whose takers gave up (they report their own error); never shown.
    package static let internalCancelled: DiagnosticCode = "internal.cancelled"
}

extension Diagnostic {
    /// A diagnostic with one of the internal codes above: caught inside Almanac, never shown.
    package static func `internal`(_ code: DiagnosticCode) -> Diagnostic {
        Diagnostic(.error, Message(key: code.rawValue))
    }
}
