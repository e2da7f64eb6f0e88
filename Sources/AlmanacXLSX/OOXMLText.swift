import AlmanacBytes

// OOXML's escape for the characters XML 1.0 cannot hold, both ways: `_x000D_` for a carriage
// return (as Excel writes line breaks in cells), `_x005F_` for an underscore that would start one.

/// OOXML's escape for characters XML cannot hold (`_x000D_` for a carriage return, as Excel writes
/// line breaks in cells; `_x005F_` for an underscore that would start one).
enum OOXMLText {
    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(ASCII.underscore) else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "_x") {
            result += rest[..<start.lowerBound]
            let digits = rest[start.upperBound...].prefix(5)
            if digits.count == 5, digits.last == "_", let code = UInt32(digits.dropLast(), radix: 16), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(start.upperBound, offsetBy: 5)...]
            } else {
                result += "_x"
                rest = rest[start.upperBound...]
            }
        }
        return result + rest
    }

    /// Text from a cell's bytes, escapes resolved when there is an underscore at all (most cells have none).
    static func text(_ bytes: ByteView) -> String {
        let text = bytes.string
        return bytes.firstIndex(of: ASCII.underscore) < bytes.count ? unescape(text) : text
    }
}

/// XML character data as SpreadsheetML stores it, written without making strings.
extension ByteWriter {
    /// `text` as XML character data: `&`, `<` and `>` as entities, and the control characters
    /// XML 1.0 cannot hold (all below U+0020 but tab, line feed and carriage return) as OOXML's
    /// `_xHHHH_` escape, which Excel and openpyxl read back as the character. An underscore that
    /// would start such an escape is itself escaped (`_x005F_`), so text reads back as it was.
    mutating func appendXMLText(_ text: ByteView) {
        var start = 0
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            // Bytes above `>` other than `_` never need escaping: most text is one copy.
            if byte > ASCII.greaterThan && byte != ASCII.underscore {
                index += 1
                continue
            }
            let replacement: StaticString?
            switch byte {
            case ASCII.ampersand: replacement = "&amp;"
            case ASCII.lessThan: replacement = "&lt;"
            case ASCII.greaterThan: replacement = "&gt;"
            case ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn: replacement = nil
            case ASCII.underscore:
                guard Self.startsEscape(text, index) else { index += 1; continue }
                replacement = "_x005F_"
            case ..<ASCII.space:
                append(text, start, index)
                append("_x00")
                append(Self.hexDigits[Int(byte >> 4)])
                append(Self.hexDigits[Int(byte & 0x0F)])
                append(ASCII.underscore)
                index += 1
                start = index
                continue
            default: replacement = nil
            }
            if let replacement {
                append(text, start, index)
                append(replacement)
                start = index + 1
            }
            index += 1
        }
        append(text, start, count)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `_xHHHH_` begins at `index`.
    private static func startsEscape(_ text: ByteView, _ index: Int) -> Bool {
        guard index + 7 <= text.count, text[index + 1] == UInt8(ascii: "x"), text[index + 6] == ASCII.underscore else { return false }
        for offset in 2..<6 where !ASCII.isHexDigit(text[index + offset]) { return false }
        return true
    }
}
