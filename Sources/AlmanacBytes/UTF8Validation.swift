/// UTF-8 validation that reports where the first bad byte is; ASCII runs are skipped sixteen
/// bytes at a time, so clean files validate at memory speed.
@usableFromInline package enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a valid sequence, or nil.
    /// With `allowTruncatedEnd`, a sequence cut off by the end of a prefix is not an error.
    package static func firstInvalidOffset(_ bytes: [UInt8], allowTruncatedEnd: Bool = false) -> Int? {
        let (invalid, complete) = validate(bytes)
        if let invalid { return invalid }
        return complete < bytes.count && !allowTruncatedEnd ? complete : nil
    }

    /// The first invalid byte (nil when valid) and how many bytes form complete characters (less
    /// than the count when the bytes end inside a character).
    package static func validate(_ bytes: [UInt8]) -> (invalid: Int?, complete: Int) {
        bytes.withByteView { validate($0, 0, $0.count) }
    }

    /// `validate` of `view[start..<end]`, in the view's offsets.
    package static func validate(_ view: ByteView, _ start: Int, _ end: Int) -> (invalid: Int?, complete: Int) {
        guard start < end else { return (nil, end) }
        var index = start
        while index < end {
            if index + 8 <= end {
                // ASCII sixteen, then eight bytes at a time; in mixed text, the ASCII bytes
                // before the first non-ASCII one are skipped at once.
                while index + 16 <= end, (view.word(at: index) | view.word(at: index + 8)) & ByteScan.tops == 0 {
                    index += 16
                }
                if index + 8 <= end {
                    let high = view.word(at: index) & ByteScan.tops
                    if high == 0 {
                        index += 8
                        continue
                    }
                    index += high.trailingZeroBitCount >> 3
                }
                // Sixteen at a time may have reached the end.
                if index == end { break }
            }
            let byte = view[index]
            if byte < ASCII.firstNonASCII {
                index += 1
                continue
            }
            // CJK text is almost all three-byte characters outside the E0/ED special cases: a
            // run of them is checked in one loop before the general rules below.
            if isCommonThreeByteLead(byte), index + 2 < end, isContinuation(view[index + 1]), isContinuation(view[index + 2]) {
                index += 3
                // Two characters (six bytes) a word at a time, then one by one.
                while index + 8 <= end, startsTwoCommonThreeByteCharacters(view.word(at: index)) { index += 6 }
                while index + 2 < end, isCommonThreeByteLead(view[index]), isContinuation(view[index + 1]), isContinuation(view[index + 2]) {
                    index += 3
                }
                continue
            }
            // The sequence's length and the range its second byte must fall in (RFC 3629's
            // table: no overlong forms, no surrogates, nothing past U+10FFFF).
            let length: Int
            var low = continuationLow
            var high = continuationHigh
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
                let second = view[index + 1]
                guard second >= low, second <= high else { return (index, index) }
                for next in 2..<available where !isContinuation(view[index + next]) { return (index, index) }
            }
            if available < length { return (nil, index) }
            index += length
        }
        return (nil, end)
    }

    /// Whether `view[start..<end]` is complete, valid UTF-8.
    @inline(__always)
    package static func isValid(_ view: ByteView, _ start: Int, _ end: Int) -> Bool {
        let (invalid, complete) = validate(view, start, end)
        return invalid == nil && complete == end
    }

    /// Whether all of `view` is complete, valid UTF-8.
    package static func isValid(_ view: ByteView) -> Bool { isValid(view, 0, view.count) }

    /// Validation of text that arrives in pieces, a character possibly split between two.
    package struct Stream: Sendable {
        /// The start of a character the last piece ended inside.
        private var pending: [UInt8] = []
        /// Whether every piece so far was valid (once false, it stays false).
        package private(set) var isValid = true

        package init() {}

        /// Whether the text ends inside a character (an error if nothing follows).
        package var endsInsideCharacter: Bool { !pending.isEmpty }

        /// Checks the next piece; returns whether the text so far is valid.
        package mutating func check(_ piece: [UInt8]) -> Bool {
            guard isValid else { return false }
            piece.withByteView { (view) in
                var start = 0
                if !pending.isEmpty {
                    // Finish the split character first.
                    let missing = min(UTF8Validation.sequenceLength(lead: pending[0]) - pending.count, view.count)
                    pending.append(contentsOf: view.base[0..<missing])
                    start = missing
                    let (invalid, complete) = UTF8Validation.validate(pending)
                    if invalid != nil { isValid = false; return }
                    if complete == pending.count { pending.removeAll() }
                    if start == view.count { return }
                }
                let (invalid, complete) = UTF8Validation.validate(view, start, view.count)
                if invalid != nil { isValid = false; return }
                pending = view.bytes(complete, view.count)
            }
            return isValid
        }
    }

    /// Continuation bytes are 10xxxxxx.
    private static var continuationLow: UInt8 { 0x80 }
    private static var continuationHigh: UInt8 { 0xBF }

    /// Whether `byte` continues a character (10xxxxxx) rather than starting one.
    @inlinable @inline(__always)
    package static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// How many bytes the character that `lead` starts has (1 for ASCII and for a byte that
    /// cannot start one).
    @inlinable
    package static func sequenceLength(lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    /// A lead byte of a three-byte character with no special second-byte range (E1–EC, EE, EF).
    @inline(__always)
    private static func isCommonThreeByteLead(_ byte: UInt8) -> Bool { byte >= 0xE1 && byte <= 0xEF && byte != 0xED }

    /// In each byte of the word's first six (lowest first), the bits that tell a lead byte
    /// 1110xxxx or a continuation 10xxxxxx: two three-byte characters.
    private static var twoThreeByteMask: UInt64 { 0x0000_C0C0_F0C0_C0F0 }
    private static var twoThreeBytePattern: UInt64 { 0x0000_8080_E080_80E0 }

    /// Whether the word's first six bytes are two three-byte characters whose leads are common
    /// (not E0 or ED, whose second bytes have narrower ranges).
    @inline(__always)
    private static func startsTwoCommonThreeByteCharacters(_ word: UInt64) -> Bool {
        guard word & twoThreeByteMask == twoThreeBytePattern else { return false }
        let first = word & 0x0F, second = (word >> 24) & 0x0F
        return first != 0 && first != 0x0D && second != 0 && second != 0x0D
    }
}
