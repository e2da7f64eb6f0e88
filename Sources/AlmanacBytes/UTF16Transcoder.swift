/// UTF-16 to UTF-8 as the bytes stream in, in pieces that may split a code unit or a surrogate
/// pair. XML 1.0 lets a document be UTF-16 (§4.3.3); a workbook part written so is read as the
/// UTF-8 the byte-level scanner reads.
package struct UTF16Transcoder {
    package let bigEndian: Bool
    /// A code unit's first byte, when a piece ended after it.
    private var halfUnit: UInt8?
    /// A high surrogate waiting for its low one.
    private var highSurrogate: UInt16?

    private static let highSurrogates: ClosedRange<UInt16> = 0xD800...0xDBFF
    private static let lowSurrogates: ClosedRange<UInt16> = 0xDC00...0xDFFF
    private static let lessThan = UInt8(ascii: "<")

    package init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// Whether a part's first bytes are UTF-16: its byte order mark (`skip`: its length), or `<`
    /// as a 16-bit code unit. Nil for anything else (UTF-8, with or without its mark).
    package static func detect(_ start: [UInt8]) -> (bigEndian: Bool, skip: Int)? {
        guard start.count >= 2 else { return nil }
        if start[0] == 0xFF, start[1] == 0xFE { return (false, 2) }
        if start[0] == 0xFE, start[1] == 0xFF { return (true, 2) }
        if start[0] == lessThan, start[1] == 0 { return (false, 0) }
        if start[0] == 0, start[1] == lessThan { return (true, 0) }
        return nil
    }

    /// The UTF-8 of `bytes`; nil when they are no UTF-16 (an unpaired surrogate, or an odd byte or a
    /// lone high surrogate at the `last` piece's end).
    package mutating func convert(_ bytes: [UInt8], last: Bool) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3 / 2)
        var index = 0
        while true {
            let first: UInt8, second: UInt8
            if let half = halfUnit {
                guard index < bytes.count else { break }
                (first, second) = (half, bytes[index])
                halfUnit = nil
                index += 1
            } else {
                guard index + 1 < bytes.count else {
                    if index < bytes.count { halfUnit = bytes[index] }
                    break
                }
                (first, second) = (bytes[index], bytes[index + 1])
                index += 2
            }
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
            let scalar: UInt32
            if let high = highSurrogate {
                guard Self.lowSurrogates.contains(unit) else { return nil }
                highSurrogate = nil
                scalar = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00))
            } else if Self.highSurrogates.contains(unit) {
                highSurrogate = unit
                continue
            } else if Self.lowSurrogates.contains(unit) {
                return nil
            } else {
                scalar = UInt32(unit)
            }
            Self.appendUTF8(scalar, to: &output)
        }
        if last, halfUnit != nil || highSurrogate != nil { return nil }
        return output
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        default:
            output.append(0xF0 | UInt8(scalar >> 18))
            output.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            output.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
