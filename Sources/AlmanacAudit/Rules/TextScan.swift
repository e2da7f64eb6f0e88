import AlmanacCore

/// Small byte-level scans several rules share.
enum TextScan {
    /// Whether `text` holds `part`, by bytes (String.contains(String) goes through Foundation).
    static func has(_ text: String, _ part: StaticString) -> Bool {
        text.withByteView { $0.contains(part) }
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
