/// A JSON document as written: objects keep their key order, integers stay integers. For formats
/// whose shape Codable does not fit (jCal's arrays of mixed types) and for errors with line and
/// column.
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

    // MARK: Writing

    /// Compact JSON, or indented by two spaces with one item of a container per line, except
    /// arrays that hold no arrays (a jCal property), which stay on one line.
    public func serialized(pretty: Bool = false, escaping: Escaping = []) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0, escaping: escaping)
        return output
    }

    /// Appends the value as it appears `indent` spaces deep inside a pretty-printed document (a
    /// document written in pieces writes each piece where it belongs).
    public func write(into output: inout String, pretty: Bool, indent: Int) {
        write(to: &output, pretty: pretty, indent: indent, escaping: [])
    }

    private func write(to output: inout String, pretty: Bool, indent: Int, escaping: Escaping) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let number):
            output += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) + ".0" : String(number)
        case .string(let text): JSONValue.quote(text, into: &output, escaping: escaping)
        case .array(let items):
            if items.isEmpty { output += "[]"; return }
            if !pretty || items.allSatisfy({ $0.array == nil }) {
                output += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { output += pretty ? ", " : "," }
                    item.write(to: &output, pretty: false, indent: indent, escaping: escaping)
                }
                output += "]"
                return
            }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                item.write(to: &output, pretty: pretty, indent: indent + 2, escaping: escaping)
                output += index < items.count - 1 ? ",\n" : "\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += pretty ? "{\n" : "{"
            for (index, (key, value)) in members.enumerated() {
                if pretty { output += String(repeating: " ", count: indent + 2) }
                JSONValue.quote(key, into: &output, escaping: escaping)
                output += pretty ? ": " : ":"
                value.write(to: &output, pretty: pretty, indent: indent + 2, escaping: escaping)
                if index < members.count - 1 { output += "," }
                if pretty { output += "\n" }
            }
            output += (pretty ? String(repeating: " ", count: indent) : "") + "}"
        }
    }

    /// How writers that must match another program byte for byte escape strings.
    public struct Escaping: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `\b` and `\f` instead of `\u0008` and `\u000c` (Python's json module).
        public static let shortControls = Escaping(rawValue: 1)
        /// `\/` for `/` (Xcode's String Catalogs, when the file already does it).
        public static let slash = Escaping(rawValue: 2)
    }

    /// A JSON string literal for `text`: quotes, backslashes and control characters escaped,
    /// everything else written as it is (UTF-8, no `\u` for non-ASCII). The bytes writer's
    /// literal, as text (one set of escaping rules for both).
    public static func quote(_ text: String, into output: inout String, escaping: Escaping = []) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        quote(text, into: &bytes, escaping: escaping)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to UTF-8 output, escaped exactly as
    /// `quote(_:into:escaping:)` does with the same options; fast for the usual text that needs
    /// no escape (checked eight bytes at a time, then copied whole).
    public static func quote(_ text: String, into output: inout [UInt8], escaping: Escaping = []) {
        var text = text
        text.withUTF8 { quote(utf8: $0, into: &output, escaping: escaping) }
    }

    public static func quote(utf8: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], escaping: Escaping = []) {
        output.append(0x22)
        scan(utf8, escaping) { run in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run]))
        } escape: { byte in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
                let length = writeEscape(byte, escaping, to: escape.baseAddress!)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: escape[..<length]))
            }
        }
        output.append(0x22)
    }

    /// The most bytes `quote` writes for `count` bytes of text: the quotes, and six bytes
    /// (`\u001f`) for each byte.
    @inline(__always)
    public static func quotedRoom(_ count: Int) -> Int { 2 + 6 * count }

    /// Writes `utf8` as a JSON string literal at `out`, which has room for `quotedRoom(utf8.count)`
    /// bytes, escaped as `quote(utf8:into:escaping:)` escapes it; returns the bytes written.
    /// (Writers that make room for a whole document first: an `append` per piece cost more than
    /// the bytes it copied.)
    @inline(__always)
    public static func quote(utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>, escaping: Escaping = []) -> Int {
        out[0] = 0x22
        var at = 1
        scan(utf8, escaping) { run in
            if !run.isEmpty { (out + at).update(from: utf8.baseAddress! + run.lowerBound, count: run.count) }
            at += run.count
        } escape: { byte in
            at += writeEscape(byte, escaping, to: out + at)
        }
        out[at] = 0x22
        return at + 1
    }

    /// Walks `utf8` as a string literal writes it: `run` for each stretch written as it is,
    /// `escape` for each byte in between that is escaped (both quote forms, one walk).
    @inline(__always)
    private static func scan(_ utf8: UnsafeBufferPointer<UInt8>, _ escaping: Escaping, run: (Range<Int>) -> Void, escape: (UInt8) -> Void) {
        var start = 0
        var index = escaping.contains(.slash) ? 0 : plainPrefix(utf8)
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            if needsEscape(byte, escaping) {
                run(start..<index)
                escape(byte)
                start = index + 1
            }
            index += 1
        }
        run(start..<count)
    }

    /// How many bytes at the start need no escape (quotes, backslashes and bytes below 0x20 do),
    /// looked at eight at a time; a multiple of eight, the rest is looked at byte by byte.
    @inline(__always)
    private static func plainPrefix(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let quotes: UInt64 = 0x2222_2222_2222_2222, backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
        var index = 0
        while index + 8 <= utf8.count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let a = word ^ quotes, b = word ^ backslashes
            let control = (word &- 0x2020_2020_2020_2020) & ~word
            if ((a &- ones) & ~a | (b &- ones) & ~b | control) & tops != 0 { break }
            index += 8
        }
        return index
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, _ escaping: Escaping) -> Bool {
        byte == 0x22 || byte == 0x5C || byte < 0x20 || (byte == 0x2F && escaping.contains(.slash))
    }

    /// The escape of one byte `needsEscape` named, written at `out` (at most six bytes).
    private static func writeEscape(_ byte: UInt8, _ escaping: Escaping, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x5C
        switch byte {
        case 0x22, 0x5C, 0x2F: out[1] = byte
        case 0x0A: out[1] = 0x6E
        case 0x0D: out[1] = 0x72
        case 0x09: out[1] = 0x74
        case 0x08 where escaping.contains(.shortControls): out[1] = 0x62
        case 0x0C where escaping.contains(.shortControls): out[1] = 0x66
        default:
            let hex: StaticString = "0123456789abcdef"
            out[1] = 0x75
            out[2] = 0x30
            out[3] = 0x30
            out[4] = hex.utf8Start[Int(byte >> 4)]
            out[5] = hex.utf8Start[Int(byte & 15)]
            return 6
        }
        return 2
    }

    // MARK: Reading

    /// Parses JSON; errors name the line and column.
    public init(parsing bytes: [UInt8], fileName: String? = nil, maxDepth: Int = 200) throws(Diagnostic) {
        var parser = JSONParser(bytes: bytes, fileName: fileName, maxDepth: maxDepth)
        parser.skipWhitespace()
        self = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("json.trailing") }
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    let fileName: String?
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], fileName: String?, maxDepth: Int) {
        self.bytes = bytes
        self.fileName = fileName
        self.maxDepth = maxDepth
    }

    func error(_ key: String, _ arguments: String...) -> Diagnostic {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return Diagnostic(.error, Message(key, arguments), at: SourceLocation(file: fileName, line: line, column: column))
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(Diagnostic) -> JSONValue {
        guard depth < maxDepth else { throw error("json.too-deep", String(maxDepth)) }
        guard index < bytes.count else { throw error("json.unexpected-end") }
        switch bytes[index] {
        case 0x7B:  // {
            index += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == 0x7D { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == 0x22 else { throw error("json.expected", "\"") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == 0x3A else { throw error("json.expected", ":") }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("json.unexpected-end") }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x7D { index += 1; return .object(members) }
                throw error("json.expected", ", }")
            }
        case 0x5B:  // [
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == 0x5D { index += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("json.unexpected-end") }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x5D { index += 1; return .array(items) }
                throw error("json.expected", ", ]")
            }
        case 0x22: return .string(try string())
        case 0x74: return try literal("true", .bool(true))
        case 0x66: return try literal("false", .bool(false))
        case 0x6E: return try literal("null", .null)
        case 0x2D, 0x30...0x39: return try number()
        default: throw error("json.unexpected-character", String(decoding: [bytes[index]], as: UTF8.self))
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(Diagnostic) -> JSONValue {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("json.expected", word)
        }
        index += expected.count
        return value
    }

    mutating func number() throws(Diagnostic) -> JSONValue {
        let start = index
        var isInteger = true
        while index < bytes.count {
            let byte = bytes[index]
            if (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B {
                index += 1
            } else if byte == 0x2E || byte == 0x65 || byte == 0x45 {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let number = Int(text) { return .integer(number) }
        guard let number = Double(text) else { throw error("json.bad-number", text) }
        return .number(number)
    }

    mutating func string() throws(Diagnostic) -> String {
        index += 1  // opening quote
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                index += 1
                return String(decoding: result, as: UTF8.self)
            }
            if byte < 0x20 { throw error("json.control-character") }
            if byte != 0x5C {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw error("json.unexpected-end") }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case 0x22: result.append(0x22)
            case 0x5C: result.append(0x5C)
            case 0x2F: result.append(0x2F)
            case 0x62: result.append(0x08)
            case 0x66: result.append(0x0C)
            case 0x6E: result.append(0x0A)
            case 0x72: result.append(0x0D)
            case 0x74: result.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 {
                    index += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        // A high surrogate without its low half (found by the fuzzer: it underflowed):
                        // U+FFFD for it, and the second escape stands on its own.
                        result += Array("\u{FFFD}".utf8)
                        scalar = low
                    }
                }
                result += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: throw error("json.bad-escape")
            }
        }
        throw error("json.unexpected-end")
    }

    mutating func hex4() throws(Diagnostic) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw error("json.bad-escape")
        }
        index += 4
        return value
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
