
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

/// Answers remembered by text, found by the text's UTF-8 bytes: the memos of RRULE and
/// CATEGORIES texts are asked once per such line, and a `[String: …]` dictionary hashes the
/// whole text with SipHash, then compares with a check for canonical equivalence (a key type
/// hashing the bytes through `Hasher` is no cheaper). Open addressing
/// with linear probing, over ByteInterner's hash; texts equal as bytes are the same key (ones
/// that differ only in how a character is composed are different keys, which a memo of what a
/// text reads as may keep apart). Holds at most `limit` texts; later ones are not remembered.
@usableFromInline package struct TextMemo<Value> {
    /// Texts and values in the order they were remembered; `slots` holds their positions (−1
    /// where empty), so probing touches no value (a rule is large: a slot holding it copied
    /// and retained its arrays) and growing moves only positions.
    @usableFromInline var hashes: [UInt64] = []
    @usableFromInline var texts: [String] = []
    @usableFromInline var values: [Value] = []
    /// Empty until the first text is remembered (a batch makes two memos for every file).
    @usableFromInline var slots: [Int32] = []
    package let limit: Int

    package init(limit: Int) { self.limit = limit }

    package var count: Int { values.count }

    @inlinable
    package subscript(text: String) -> Value? {
        guard !values.isEmpty else { return nil }
        return text.withByteView { self[$0] }
    }

    /// The value remembered for the text whose UTF-8 bytes these are.
    @inlinable
    package subscript(bytes: ByteView) -> Value? {
        guard !values.isEmpty else { return nil }
        let position = slots[find(bytes).slot]
        return position < 0 ? nil : values[Int(position)]
    }

    /// Remembers `value` for `text` (replacing what it had), unless the memo is full.
    package mutating func remember(_ value: Value, for text: String) {
        if slots.isEmpty { slots = Array(repeating: -1, count: 8) }
        let (slot, hash) = text.withByteView { find($0) }
        let position = slots[slot]
        if position >= 0 {
            values[Int(position)] = value
            return
        }
        guard values.count < limit else { return }
        slots[slot] = Int32(values.count)
        hashes.append(hash)
        texts.append(text)
        values.append(value)
        if values.count * 2 > slots.count { grow() }
    }

    /// The slot that holds the text of these bytes, or the empty one where it would go, and the
    /// text's hash.
    @inlinable
    func find(_ bytes: ByteView) -> (slot: Int, hash: UInt64) {
        let hash = bytes.isEmpty ? 0 : ByteInterner.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let position = Int(slots[slot])
            if hashes[position] == hash, bytes.elementsEqual(texts[position]) { break }
            slot = (slot + 1) & mask
        }
        return (slot, hash)
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (position, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position)
        }
    }
}
