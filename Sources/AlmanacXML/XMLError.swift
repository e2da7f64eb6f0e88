/// Why a document could not be read or written, and where.
public struct XMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not well-formed XML.
        public static let malformed = Kind("malformed")
        /// A DTD declares entities (billion laughs, XXE): refused, never expanded or fetched.
        public static let entityDeclaration = Kind("entity-declaration")
        /// Nested deeper than the limit.
        public static let tooDeep = Kind("too-deep")
        /// Larger than the limit.
        public static let tooLarge = Kind("too-large")
        /// A character XML 1.0 cannot hold (control characters other than tab and newlines).
        public static let invalidCharacter = Kind("invalid-character")
        public static let outOfMemory = Kind("out-of-memory")
    }

    public var kind: Kind
    /// libxml2's or our own explanation, in English.
    public var message: String
    /// 1-based; 0 when unknown.
    public var line: Int
    /// 1-based; 0 when unknown.
    public var column: Int

    public init(_ kind: Kind, message: String, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        line > 0 ? "line \(line)\(column > 0 ? ":\(column)" : ""): \(message)" : message
    }
}

/// Limits that keep a hostile or broken document from costing unbounded time or memory.
public struct XMLLimits: Hashable, Sendable {
    /// Deepest element nesting accepted (plists and XLIFF need fewer than 20; at most 255).
    public var maxDepth: Int
    /// Largest document accepted, in bytes.
    public var maxBytes: Int

    public init(maxDepth: Int = 200, maxBytes: Int = 256 * 1024 * 1024) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    public static let `default` = XMLLimits()
}
