#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 5545 TEXT escaping (§3.3.11): backslash, semicolon, comma and newline. Carried property
/// values (`CarriedProperty.value`) are kept in this form, whatever format they came from.
public enum PropertyText {
    public static func unescape(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress, let backslash = memchr(base, 0x5C, bytes.count) else { return nil }
            return unescaped(bytes, from: UnsafePointer<UInt8>(backslash.assumingMemoryBound(to: UInt8.self)) - base)
        } ?? value
    }

    /// The same, from a value's UTF-8 bytes (a reader that has not made a string of them yet):
    /// one string made, not one for the escaped text and another for the text.
    public static func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, let backslash = memchr(base, 0x5C, bytes.count) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return unescaped(bytes, from: UnsafePointer<UInt8>(backslash.assumingMemoryBound(to: UInt8.self)) - base)
    }

    /// `bytes` unescaped, its first backslash at `first`.
    private static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> String {
        let base = bytes.baseAddress!
        var at = first
        // Written straight into the new string's storage, the runs between escapes copied whole.
        return String(unsafeUninitializedCapacity: bytes.count) { output in
            var written = 0
            var index = 0
            while true {
                if at > index {
                    UnsafeMutableRawPointer(output.baseAddress! + written).copyMemory(from: base + index, byteCount: at - index)
                    written += at - index
                }
                index = at
                if index + 1 >= bytes.count {
                    // A backslash at the very end: kept.
                    output[written] = 0x5C
                    written += 1
                    index += 1
                    break
                }
                let next = bytes[index + 1]
                switch next {
                case 0x6E, 0x4E: output[written] = 0x0A; written += 1  // \n \N
                case 0x5C, 0x3B, 0x2C, 0x22: output[written] = next; written += 1  // \\ \; \, \"
                default:
                    // Not a valid escape: keep both characters rather than lose one.
                    output[written] = 0x5C
                    output[written + 1] = next
                    written += 2
                }
                index += 2
                guard index < bytes.count, let found = memchr(base + index, 0x5C, bytes.count - index) else { break }
                at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            }
            if index < bytes.count {
                UnsafeMutableRawPointer(output.baseAddress! + written).copyMemory(from: base + index, byteCount: bytes.count - index)
                written += bytes.count - index
            }
            return written
        }
    }

    public static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
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
        var value = value
        let plain: [String]? = value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, memchr(base, 0x5C, bytes.count) == nil else { return nil }
            var parts: [String] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x2C {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                start = index + 1
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
