/// RFC 5545 TEXT escaping (§3.3.11): backslash, semicolon, comma and newline. Carried property
/// values (`CarriedProperty.value`) are kept in this form, whatever format they came from.
public enum PropertyText {
    public static func unescape(_ value: String) -> String {
        value.withByteView { bytes in bytes.firstIndex(of: ASCII.backslash) < bytes.count ? unescape(bytes) : nil } ?? value
    }

    /// The same, from a value's UTF-8 bytes (a reader that has not made a string of them yet):
    /// one string made, not one for the escaped text and another for the text.
    package static func unescape(_ bytes: ByteView) -> String {
        let first = bytes.firstIndex(of: ASCII.backslash)
        guard first < bytes.count else { return bytes.string }
        // Written in place in the new string, the runs between escapes copied whole.
        return String(capacity: bytes.count) { output in
            var at = first
            var index = 0
            while true {
                output.append(bytes, index, at)
                index = at
                if index + 1 >= bytes.count {
                    // A backslash at the very end: kept.
                    output.append(ASCII.backslash)
                    index += 1
                    break
                }
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): output.append(ASCII.lineFeed)
                case ASCII.backslash, ASCII.semicolon, ASCII.comma, ASCII.quote: output.append(next)
                default:
                    // Not a valid escape: keep both characters rather than lose one.
                    output.append(ASCII.backslash)
                    output.append(next)
                }
                index += 2
                at = bytes.firstIndex(of: ASCII.backslash, from: index)
                guard index < bytes.count, at < bytes.count else { break }
            }
            if index < bytes.count { output.append(bytes, index, bytes.count) }
        }
    }

    public static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = {
            $0 == ASCII.backslash || $0 == ASCII.semicolon || $0 == ASCII.comma || $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn
        }
        let needs = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? text.utf8.contains(where: special)
        guard needs else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Splits a multi-valued TEXT (CATEGORIES, RESOURCES) at unescaped commas, unescaping each part.
    public static func splitList(_ value: String) -> [String] {
        // Most lists have no backslash: split the bytes at commas (a comma byte is never inside a
        // multi-byte character), without building each part a character at a time.
        let plain: [String]? = value.withByteView { bytes in
            guard bytes.firstIndex(of: ASCII.backslash) == bytes.count else { return nil }
            var parts: [String] = []
            var start = 0
            while true {
                let comma = bytes.firstIndex(of: ASCII.comma, from: start)
                parts.append(bytes.string(start, comma))
                guard comma < bytes.count else { break }
                start = comma + 1
            }
            return parts
        }
        if let plain { return plain }
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(unescape(current))
        return parts
    }
}
