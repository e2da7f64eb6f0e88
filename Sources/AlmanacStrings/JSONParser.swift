/// Reading JSON into `JSONValue` (AlmanacBytes), with errors as located diagnostics.
extension JSONValue {
    /// Parses JSON; errors name the line and column.
    public init(parsing bytes: [UInt8], fileName: String? = nil, maxDepth: Int = 200) throws(Diagnostic) {
        var parser = JSONParser(bytes: bytes, fileName: fileName, maxDepth: maxDepth)
        parser.skipWhitespace()
        self = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error(.jsonTrailing) }
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

    func error(_ message: Message) -> Diagnostic {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == ASCII.lineFeed { line += 1; column = 1 } else if !UTF8Validation.isContinuation(byte) { column += 1 }
        }
        return Diagnostic(.error, message, at: SourceLocation(file: fileName, line: line, column: column))
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.lineFeed || bytes[index] == ASCII.carriageReturn || bytes[index] == ASCII.tab {
            index += 1
        }
    }

    mutating func value(depth: Int) throws(Diagnostic) -> JSONValue {
        guard depth < maxDepth else { throw error(.jsonTooDeep(limit: String(maxDepth))) }
        guard index < bytes.count else { throw error(.jsonUnexpectedEnd) }
        switch bytes[index] {
        case ASCII.openBrace:  // {
            index += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == ASCII.closeBrace { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == ASCII.quote else { throw error(.jsonExpected(expected: "\"")) }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == ASCII.colon else { throw error(.jsonExpected(expected: ":")) }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error(.jsonUnexpectedEnd) }
                if bytes[index] == ASCII.comma { index += 1; continue }
                if bytes[index] == ASCII.closeBrace { index += 1; return .object(members) }
                throw error(.jsonExpected(expected: ", }"))
            }
        case ASCII.openBracket:  // [
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == ASCII.closeBracket { index += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error(.jsonUnexpectedEnd) }
                if bytes[index] == ASCII.comma { index += 1; continue }
                if bytes[index] == ASCII.closeBracket { index += 1; return .array(items) }
                throw error(.jsonExpected(expected: ", ]"))
            }
        case ASCII.quote: return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case ASCII.hyphen, ASCII.zero...ASCII.nine: return try number()
        default: throw error(.jsonUnexpectedCharacter(character: String(decoding: [bytes[index]], as: UTF8.self)))
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(Diagnostic) -> JSONValue {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error(.jsonExpected(expected: word))
        }
        index += expected.count
        return value
    }

    mutating func number() throws(Diagnostic) -> JSONValue {
        let start = index
        var isInteger = true
        while index < bytes.count {
            let byte = bytes[index]
            if ASCII.isDigit(byte) || byte == ASCII.hyphen || byte == ASCII.plus {
                index += 1
            } else if byte == ASCII.period || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let number = Int(text) { return .integer(number) }
        guard let number = Double(text) else { throw error(.jsonBadNumber(text: text)) }
        return .number(number)
    }

    mutating func string() throws(Diagnostic) -> String {
        index += 1  // opening quote
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return String(decoding: result, as: UTF8.self)
            }
            if byte < ASCII.space { throw error(.jsonControlCharacter) }
            if byte != ASCII.backslash {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw error(.jsonUnexpectedEnd) }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case ASCII.quote: result.append(ASCII.quote)
            case ASCII.backslash: result.append(ASCII.backslash)
            case ASCII.slash: result.append(ASCII.slash)
            case UInt8(ascii: "b"): result.append(ASCII.backspace)
            case UInt8(ascii: "f"): result.append(ASCII.formFeed)
            case UInt8(ascii: "n"): result.append(ASCII.lineFeed)
            case UInt8(ascii: "r"): result.append(ASCII.carriageReturn)
            case UInt8(ascii: "t"): result.append(ASCII.tab)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count, bytes[index] == ASCII.backslash, bytes[index + 1] == UInt8(ascii: "u") {
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
            default: throw error(.jsonBadEscape)
            }
        }
        throw error(.jsonUnexpectedEnd)
    }

    mutating func hex4() throws(Diagnostic) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw error(.jsonBadEscape)
        }
        index += 4
        return value
    }
}

