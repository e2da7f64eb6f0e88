/// Small byte-level scans several rules share.
enum TextScan {
    /// Whether `text` holds `part`, by bytes (String.contains(String) goes through Foundation).
    static func has(_ text: String, _ part: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count, let first = needle.first else { return false }
            var index = 0
            while index + needle.count <= haystack.count {
                if haystack[index] == first, (1..<needle.count).allSatisfy({ haystack[index + $0] == needle[$0] }) { return true }
                index += 1
            }
            return false
        }
    }

    /// Whether a character is CJK: ideographs, CJK punctuation, full-width forms.
    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3000...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60: return true
        default: return false
        }
    }
}
