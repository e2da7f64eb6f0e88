/// Telling the Unicode encodings apart without ICU: byte order marks, UTF-16 without one, and
/// UTF-8 validity. CharsetDetector (AlmanacICU) builds on these and adds the legacy charsets.

/// A Unicode encoding form.
public enum UnicodeForm: String, Hashable, Sendable {
    case utf8 = "UTF-8", utf16LE = "UTF-16LE", utf16BE = "UTF-16BE", utf32LE = "UTF-32LE", utf32BE = "UTF-32BE"

    /// The byte order mark of the form.
    public var byteOrderMark: [UInt8] {
        switch self {
        case .utf8: [0xEF, 0xBB, 0xBF]
        case .utf16LE: [0xFF, 0xFE]
        case .utf16BE: [0xFE, 0xFF]
        case .utf32LE: [0xFF, 0xFE, 0x00, 0x00]
        case .utf32BE: [0x00, 0x00, 0xFE, 0xFF]
        }
    }
}

public enum UnicodeDetection {
    /// The form whose byte order mark starts `bytes`.
    public static func byteOrderMark(_ bytes: [UInt8]) -> UnicodeForm? {
        // UTF-32LE's BOM starts with UTF-16LE's: check the longer one first.
        for form in [UnicodeForm.utf32LE, .utf32BE, .utf8, .utf16LE, .utf16BE] where bytes.starts(with: form.byteOrderMark) {
            if form == .utf32LE, bytes.count % 4 != 0 { continue }
            return form
        }
        return nil
    }

    /// UTF-16 text without a BOM (like .strings files some tools write) has a zero byte in most
    /// ASCII characters: in odd positions for little-endian, even ones for big-endian.
    public static func utf16WithoutBOM(_ bytes: [UInt8]) -> (littleEndian: Bool, score: Double)? {
        guard bytes.count >= 4, bytes.withByteView(ByteScan.containsZero) else { return nil }
        let pairs = bytes.count / 2
        var evenZeros = 0
        var oddZeros = 0
        for index in 0..<pairs {
            if bytes[2 * index] == 0 { evenZeros += 1 }
            if bytes[2 * index + 1] == 0 { oddZeros += 1 }
        }
        let even = Double(evenZeros) / Double(pairs)
        let odd = Double(oddZeros) / Double(pairs)
        // Text with any Latin punctuation or keys has many zero high bytes; Chinese-only text may not,
        // but then we still require the decoded units to be plausible text.
        let littleEndian: Bool
        if odd > 0.2 && even < 0.05 { littleEndian = true } else if even > 0.2 && odd < 0.05 { littleEndian = false } else { return nil }
        guard plausibleUTF16(bytes, littleEndian: littleEndian) else { return nil }
        return (littleEndian, max(odd, even))
    }

    private static func plausibleUTF16(_ bytes: [UInt8], littleEndian: Bool) -> Bool {
        var index = 0
        var expectLow = false
        while index + 1 < bytes.count {
            let unit = littleEndian ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            index += 2
            if expectLow {
                guard UTF16.isTrailSurrogate(unit) else { return false }
                expectLow = false
                continue
            }
            if UTF16.isLeadSurrogate(unit) { expectLow = true; continue }
            if UTF16.isTrailSurrogate(unit) { return false }
            // Control characters other than tab, newline and return do not occur in text.
            if unit < 0x20 && unit != ASCII.tab && unit != ASCII.lineFeed && unit != ASCII.carriageReturn { return false }
        }
        return true
    }

    /// The index of the first unit that is half of a surrogate pair without its other half.
    public static func firstInvalidUTF16(_ units: [UInt16]) -> Int? {
        var index = 0
        while index < units.count {
            if UTF16.isLeadSurrogate(units[index]) {
                guard index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) else { return index }
                index += 2
            } else if UTF16.isTrailSurrogate(units[index]) {
                return index
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The UTF-16 units of `bytes` (an odd last byte is left out).
    public static func utf16Units(_ bytes: some Collection<UInt8>, littleEndian: Bool) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var iterator = bytes.makeIterator()
        while let first = iterator.next(), let second = iterator.next() {
            units.append(littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second))
        }
        return units
    }
}
