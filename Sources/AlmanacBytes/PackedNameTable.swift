/// A few names of letters, digits and dashes (at most 16 bytes), found from bytes in either case
/// without making a string: the bytes are packed as two little-endian words (zero-padded, so the
/// words alone tell names apart) and looked up in 128 slots by a multiplicative hash chosen so
/// that no two names share a slot: one multiply and one compare.
@usableFromInline package struct PackedNameTable<Value: Sendable>: Sendable {
    /// The packed words of the name in each slot (zero where empty), apart from the entries, so
    /// that a probe compares two words without copying an entry (a slot read whole retains and
    /// releases its name, and there is one lookup a line).
    @usableFromInline let words: [(low: UInt64, high: UInt64)]
    @usableFromInline let entries: [(value: Value, name: String)?]
    @usableFromInline let multiplier: UInt64

    package init(_ names: [(String, Value)]) {
        precondition(names.count <= 48 && names.allSatisfy { !$0.0.isEmpty && $0.0.utf8.count <= 16 })
        // A fixed sequence of odd multipliers: the first without a collision is found in a few
        // dozen tries (33 names in 128 slots), the same one every run.
        var candidate: UInt64 = 0x2545_F491_4F6C_DD1D
        while true {
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let multiplier = candidate | 1
            var words = Array(repeating: (low: UInt64(0), high: UInt64(0)), count: 128)
            var entries: [(value: Value, name: String)?] = Array(repeating: nil, count: 128)
            var placed = true
            for (name, value) in names {
                let bytes = Array(name.utf8)
                let low = Self.pack(bytes, 0), high = Self.pack(bytes, 8)
                let index = Self.index(low, high, multiplier)
                if entries[index] != nil {
                    placed = false
                    break
                }
                words[index] = (low, high)
                entries[index] = (value, name)
            }
            if placed {
                self.multiplier = multiplier
                self.words = words
                self.entries = entries
                return
            }
        }
    }

    @inlinable @inline(__always)
    static func index(_ low: UInt64, _ high: UInt64, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* multiplier) >> 57)
    }

    private static func pack(_ bytes: [UInt8], _ from: Int) -> UInt64 {
        var word: UInt64 = 0
        var index = from
        while index < min(from + 8, bytes.count) {
            word |= UInt64(bytes[index]) << UInt64((index - from) * 8)
            index += 1
        }
        return word
    }

    /// The value and the table's (uppercase, shared) name for the bytes `buffer[start..<end]`,
    /// in any case; nil when they are none of the names.
    @inlinable @inline(__always)
    package func lookup(_ buffer: ByteView, _ start: Int, _ end: Int) -> (Value, String)? {
        guard let slot = slot(buffer, start, end) else { return nil }
        return entries[slot]
    }

    /// The slot holding the name in `buffer[start..<end]`, in any case; nil when it is none of them.
    @inlinable
    package func slot(_ buffer: ByteView, _ start: Int, _ end: Int) -> Int? {
        let length = end - start
        // The words are zero-padded: a name followed by zero bytes (`DTEND\0`) would pack as the
        // name. No name ends in one.
        guard length > 0, length <= 16, buffer[end - 1] != ASCII.null else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        if start + 16 <= buffer.count {
            // Two word loads (bytes past the name, still inside the buffer, are masked off), and
            // uppercase in one step: clearing 0x20 in bytes that have 0x40 set turns exactly the
            // lowercase letters into uppercase ones, and no other byte into a letter (the names
            // hold only letters, digits and dashes, so nothing else can match).
            low = buffer.word(at: start)
            high = buffer.word(at: start + 8)
            low = length >= 8 ? low : low & ((1 << UInt64(length &* 8)) &- 1)
            high = length >= 16 ? high : length <= 8 ? 0 : high & ((1 << UInt64((length &- 8) &* 8)) &- 1)
            let fortyBits: UInt64 = 0x4040_4040_4040_4040
            low &= ~((low & fortyBits) >> 1)
            high &= ~((high & fortyBits) >> 1)
        } else {
            for index in 0..<length {
                var byte = buffer[start + index]
                if byte & 0x40 != 0 { byte &= ~ASCII.caseBit }
                if index < 8 { low |= UInt64(byte) << UInt64(index * 8) } else { high |= UInt64(byte) << UInt64((index - 8) * 8) }
            }
        }
        let slot = Self.index(low, high, multiplier)
        return words[slot].low == low && words[slot].high == high ? slot : nil
    }
}
