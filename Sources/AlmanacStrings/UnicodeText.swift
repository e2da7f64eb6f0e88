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
        guard bytes.count >= 4, containsZero(bytes) else { return nil }
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

    /// Whether any byte is zero, eight at a time: a UTF-8 file (almost every input) has none,
    /// and counting zeros in both positions of every pair was most of detecting its charset.
    private static func containsZero(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var index = 0
            let ones: UInt64 = 0x0101_0101_0101_0101
            while index + 8 <= buffer.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if (word &- ones) & ~word & (ones &* 0x80) != 0 { return true }
                index += 8
            }
            while index < buffer.count {
                if buffer[index] == 0 { return true }
                index += 1
            }
            return false
        }
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
            if unit < 0x20 && unit != 0x09 && unit != 0x0A && unit != 0x0D { return false }
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

/// UTF-8 validation that reports where the first bad byte is; ASCII runs are skipped eight
/// bytes at a time, so clean files validate at memory speed.
public enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a valid sequence, or nil.
    /// With `allowTruncatedEnd`, a sequence cut off by the end of a prefix is not an error.
    public static func firstInvalidOffset(_ bytes: [UInt8], allowTruncatedEnd: Bool = false) -> Int? {
        let (invalid, complete) = validate(bytes)
        if let invalid { return invalid }
        return complete < bytes.count && !allowTruncatedEnd ? complete : nil
    }

    /// The first invalid byte (nil when valid) and how many bytes form complete characters (less
    /// than the count when the bytes end inside a character).
    public static func validate(_ bytes: [UInt8]) -> (invalid: Int?, complete: Int) {
        bytes.withUnsafeBufferPointer { validate($0, 0, $0.count) }
    }

    public static func validate(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (invalid: Int?, complete: Int) {
        guard start < end, let base = buffer.baseAddress else { return (nil, end) }
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index < end {
            if index + 8 <= end {
                // ASCII sixteen, then eight bytes at a time; in mixed text, the ASCII bytes
                // before the first non-ASCII one are skipped at once.
                while index + 16 <= end,
                      (UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                        | UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)) & highs == 0 {
                    index += 16
                }
                if index + 8 <= end {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & highs
                    if word == 0 {
                        index += 8
                        continue
                    }
                    index += word.trailingZeroBitCount >> 3
                }
                // Sixteen at a time may have reached the end.
                if index == end { break }
            }
            let byte = base[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            // CJK text is almost all three-byte characters outside the E0/ED special cases: a
            // run of them is checked in one loop before the general rules below.
            if byte >= 0xE1, byte <= 0xEF, byte != 0xED, index + 2 < end,
               base[index + 1] & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 {
                index += 3
                while index + 2 < end {
                    let lead = base[index]
                    guard lead >= 0xE1, lead <= 0xEF, lead != 0xED,
                          base[index + 1] & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 else { break }
                    index += 3
                }
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return (index, index)
            }
            let available = min(length, end - index)
            if available > 1 {
                let second = base[index + 1]
                guard second >= low, second <= high else { return (index, index) }
                for next in 2..<available where base[index + next] & 0xC0 != 0x80 { return (index, index) }
            }
            if available < length { return (nil, index) }
            index += length
        }
        return (nil, end)
    }

    /// Whether `buffer[start..<end]` is complete, valid UTF-8.
    @inline(__always)
    public static func isValid(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let (invalid, complete) = validate(buffer, start, end)
        return invalid == nil && complete == end
    }
}
