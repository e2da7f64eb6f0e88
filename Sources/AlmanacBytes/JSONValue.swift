/// A JSON document as written: objects keep their key order, integers stay integers. For formats
/// whose shape Codable does not fit (jCal's arrays of mixed types) and for errors with line and
/// column (the parser is `JSONValue(parsing:)`, in AlmanacStrings, where diagnostics live).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    public var string: String? { if case .string(let text) = self { text } else { nil } }
    /// Whether this is `null` (asked without comparing two values, which copies both).
    public var isNull: Bool { if case .null = self { true } else { false } }
    public var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    public var object: [(String, JSONValue)]? { if case .object(let members) = self { members } else { nil } }

    /// How writers that must match another program byte for byte escape strings.
    public struct Escaping: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `\b` and `\f` instead of `\u0008` and `\u000c` (Python's json module, Foundation).
        public static let shortControls = Escaping(rawValue: 1)
        /// `\/` for `/` (Xcode's String Catalogs, when the file already does it).
        public static let slash = Escaping(rawValue: 2)
    }

    // MARK: Writing (through `JSONWriter`)

    /// Compact JSON, or indented by two spaces with one item of a container per line, except
    /// arrays that hold no arrays (a jCal property), which stay on one line.
    public func serialized(pretty: Bool = false, escaping: Escaping = []) -> String {
        var layout = pretty ? JSONWriter.Layout.pretty : .compact
        layout.escaping = escaping
        return String(decoding: bytes(layout), as: UTF8.self)
    }

    /// Appends the value as UTF-8, as `serialized(pretty:)` writes it, laid out `level` levels deep
    /// inside a larger pretty-printed document (a document written in pieces writes each piece
    /// where it belongs).
    public func write(into output: inout [UInt8], pretty: Bool, level: Int = 0) {
        var writer = JSONWriter(layout: pretty ? .pretty : .compact, capacity: 256, level: level)
        writer.value(self)
        output += writer.take()
    }

    /// A JSON string literal for `text`: quotes, backslashes and control characters escaped,
    /// everything else written as it is (UTF-8, no `\u` for non-ASCII).
    public static func quote(_ text: String, into output: inout String, escaping: Escaping = []) {
        var bytes: [UInt8] = []
        quote(text, into: &bytes, escaping: escaping)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to UTF-8 output, escaped as `quote(_:into:escaping:)`.
    public static func quote(_ text: String, into output: inout [UInt8], escaping: Escaping = []) {
        text.withByteView { view in
            let matcher = JSONEscapes(slash: escaping.contains(.slash))
            output.append(ASCII.quote)
            var start = 0
            while start <= view.count {
                let index = ByteScan.firstIndex(in: view, from: start, to: view.count, where: matcher)
                view.append(start, index, to: &output)
                guard index < view.count else { break }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
                    let length = writeEscape(view[index], escaping, to: escape.baseAddress!)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: escape[..<length]))
                }
                start = index + 1
            }
            output.append(ASCII.quote)
        }
    }

    /// The most bytes a literal of `count` bytes of text takes: the quotes, and six bytes
    /// (`\u001f`) for each byte.
    @inline(__always)
    static func quotedRoom(_ count: Int) -> Int { 2 + 6 * count }

    /// Writes `view` escaped (without quotes) at `out`, which has room for six bytes a byte;
    /// returns the bytes written. The runs that need no escape are found eight bytes at a time
    /// and copied whole.
    static func escape(_ view: ByteView, escaping: Escaping, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let matcher = JSONEscapes(slash: escaping.contains(.slash))
        var at = 0
        var start = 0
        while start < view.count {
            let index = ByteScan.firstIndex(in: view, from: start, to: view.count, where: matcher)
            if index > start, let base = view.base.baseAddress {
                ShortCopy.copy(base + start, to: out + at, count: index - start)
                at += index - start
            }
            guard index < view.count else { break }
            at += writeEscape(view[index], escaping, to: out + at)
            start = index + 1
        }
        return at
    }

    /// The escape of one byte `JSONEscapes` matched, written at `out` (at most six bytes).
    private static func writeEscape(_ byte: UInt8, _ escaping: Escaping, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = ASCII.backslash
        switch byte {
        case ASCII.quote, ASCII.backslash, ASCII.slash: out[1] = byte
        case ASCII.lineFeed: out[1] = UInt8(ascii: "n")
        case ASCII.carriageReturn: out[1] = UInt8(ascii: "r")
        case ASCII.tab: out[1] = UInt8(ascii: "t")
        case ASCII.backspace where escaping.contains(.shortControls): out[1] = UInt8(ascii: "b")
        case ASCII.formFeed where escaping.contains(.shortControls): out[1] = UInt8(ascii: "f")
        default:
            // \u00XX
            out[1] = UInt8(ascii: "u")
            out[2] = ASCII.zero
            out[3] = ASCII.zero
            out[4] = Digits.lowercaseHex(Int(byte >> 4))
            out[5] = Digits.lowercaseHex(Int(byte & 0x0F))
            return 6
        }
        return 2
    }

    // MARK: Key order

    /// Whether an object's keys are in code point order already (writers mostly build them so).
    static func isSorted(_ members: [(String, JSONValue)]) -> Bool {
        var index = 1
        while index < members.count {
            guard precedes(members[index - 1].0, members[index].0) else { return false }
            index += 1
        }
        return true
    }

    /// Code point order, as Python sorts `str` keys: the UTF-8 bytes compared (UTF-8's byte
    /// order is code point order).
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The same value with every object's keys in code point order.
    package func sortingKeys() -> JSONValue {
        switch self {
        case .array(let items): .array(items.map { $0.sortingKeys() })
        case .object(let members):
            .object((JSONValue.isSorted(members) ? members : members.sorted { JSONValue.precedes($0.0, $1.0) }).map { ($0.0, $0.1.sortingKeys()) })
        default: self
        }
    }
}

/// A JSON value inside a Codable report (a manifest line's `id`, echoed as it came).
extension JSONValue: Encodable {
    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null, .bool, .integer, .number, .string:
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            default: try container.encodeNil()
            }
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
        }
    }
}
