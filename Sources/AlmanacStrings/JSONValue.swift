/// Reading JSON into `JSONValue` (AlmanacBytes), with errors as located diagnostics.
extension JSONValue {
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

