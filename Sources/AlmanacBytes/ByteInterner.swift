/// Hands out one shared string for byte sequences that repeat (TZIDs, rules, categories), found
/// by a hash of the bytes, so a repeat costs a comparison instead of an allocation.
@usableFromInline package final class ByteInterner {
    /// A small table first, made on the first string to share (a batch parses thousands of 4 KB
    /// files, and making and freeing a large table for each cost more than sharing saved); it
    /// grows as a file gives it strings, up to 4,096 slots.
    /// A slot whose hash is 0 is empty (stored hashes have their top bit set); a new string takes
    /// its slot from the one there, so the table keeps the recent strings of a long file.
    @usableFromInline var hashes: [UInt64] = []
    @usableFromInline var texts: [String] = []
    private var stored = 0

    package init() {}

    /// The text of `view[start..<end]`, shared with an earlier equal one when there is one.
    package func string(_ view: ByteView, _ start: Int, _ end: Int) -> String {
        let length = end - start
        guard length > 15, length <= 256 else {
            // Short strings are stored inline anyway; long ones rarely repeat.
            return view.string(start, end)
        }
        if hashes.isEmpty {
            hashes = Array(repeating: 0, count: 64)
            texts = Array(repeating: "", count: 64)
        }
        let part = view[start..<end]
        let hash = Self.hash(part) | (1 << 63)
        let slot = Int(truncatingIfNeeded: hash) & (hashes.count - 1)
        if hashes[slot] == hash, part.elementsEqual(texts[slot]) { return texts[slot] }
        let text = part.string
        hashes[slot] = hash
        texts[slot] = text
        stored += 1
        if stored >= hashes.count * 2, hashes.count < 4096 { grow() }
        return text
    }

    /// A quick hash of the bytes, eight at a time (the table's own: nothing outside this process
    /// sees it, so it need not be stable; `StableHash`'s byte-at-a-time loop was slower than
    /// the allocation it saves).
    @inlinable @inline(__always)
    static func hash(_ view: ByteView) -> UInt64 {
        let length = view.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(length)
        var index = 0
        while index + 8 <= length {
            hash = (hash ^ view.word(at: index)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < length {
            tail |= UInt64(view[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    private func grow() {
        let size = hashes.count * 4
        var largerHashes = Array(repeating: UInt64(0), count: size)
        var largerTexts = Array(repeating: "", count: size)
        for (hash, text) in zip(hashes, texts) where hash != 0 {
            let slot = Int(truncatingIfNeeded: hash) & (size - 1)
            largerHashes[slot] = hash
            largerTexts[slot] = text
        }
        hashes = largerHashes
        texts = largerTexts
    }
}
