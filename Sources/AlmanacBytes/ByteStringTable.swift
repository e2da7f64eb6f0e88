/// Distinct byte strings, numbered in the order they were added and found again by their bytes:
/// the bytes of all of them in one array (no allocation per string), open addressing with linear
/// probing over ByteInterner's hash. Strings equal as bytes are the same string (text composed
/// two ways is two strings). Holds at most `maxCount` strings of `maxBytes` bytes in all; past
/// that, new strings are not added, and those held are still found.
@usableFromInline package struct ByteStringTable: Sendable {
    /// The strings' bytes one after another; string `n` ends at `ends[n]`.
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var ends: [Int] = []
    @usableFromInline var hashes: [UInt64] = []
    /// Positions of strings (−1 where empty); empty until the first string is added.
    @usableFromInline var slots: [Int32] = []
    @usableFromInline package let maxCount: Int
    @usableFromInline package let maxBytes: Int

    package init(maxCount: Int, maxBytes: Int = .max) {
        self.maxCount = min(maxCount, Int(Int32.max))
        self.maxBytes = maxBytes
    }

    @inlinable
    package var count: Int { ends.count }

    /// The number of the string with these bytes, if the table holds it.
    @inlinable
    package func number(of view: ByteView) -> Int? {
        guard !ends.isEmpty else { return nil }
        let position = slots[find(view, hash: Self.hash(view))]
        return position < 0 ? nil : Int(position)
    }

    /// The number of the string with these bytes, added as the next number if the table does
    /// not hold it (`added`); nil when it does not and is full.
    @inlinable
    package mutating func insert(_ view: ByteView) -> (number: Int, added: Bool)? {
        if slots.isEmpty { slots = Array(repeating: -1, count: 8) }
        let hash = Self.hash(view)
        let slot = find(view, hash: hash)
        if slots[slot] >= 0 { return (Int(slots[slot]), false) }
        guard ends.count < maxCount, bytes.count + view.count <= maxBytes else { return nil }
        let number = ends.count
        slots[slot] = Int32(number)
        bytes.append(contentsOf: view.base)
        ends.append(bytes.count)
        hashes.append(hash)
        if ends.count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Lends the bytes of string `number` for the length of `body`.
    @inlinable
    package func withBytes<Result>(of number: Int, _ body: (ByteView) -> Result) -> Result {
        let start = number == 0 ? 0 : ends[number - 1]
        return bytes.withByteView { body($0[start..<ends[number]]) }
    }

    @inlinable @inline(__always)
    static func hash(_ view: ByteView) -> UInt64 {
        view.isEmpty ? 0 : ByteInterner.hash(view)
    }

    /// The slot that holds the string of these bytes, or the empty one where it would go.
    @inlinable
    func find(_ view: ByteView, hash: UInt64) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        return bytes.withByteView { stored in
            while slots[slot] >= 0 {
                let position = Int(slots[slot])
                if hashes[position] == hash {
                    let start = position == 0 ? 0 : ends[position - 1]
                    if stored[start..<ends[position]].elementsEqual(view) { break }
                }
                slot = (slot + 1) & mask
            }
            return slot
        }
    }

    @usableFromInline
    mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (position, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position)
        }
    }
}

/// Answers remembered by text, found by the text's UTF-8 bytes: the memos of RRULE and
/// CATEGORIES texts are asked once per such line, and a `[String: …]` dictionary hashes the
/// whole text with SipHash, then compares with a check for canonical equivalence (a key type
/// hashing the bytes through `Hasher` is no cheaper). The texts are a `ByteStringTable` (texts
/// that differ only in how a character is composed are different keys, which a memo of what a
/// text reads as may keep apart), the values beside them by number, so probing touches no value
/// (a rule is large: a slot holding it copied and retained its arrays). Holds at most `limit`
/// texts; later ones are not remembered.
@usableFromInline package struct TextMemo<Value> {
    @usableFromInline var texts: ByteStringTable
    @usableFromInline var values: [Value] = []

    package init(limit: Int) { texts = ByteStringTable(maxCount: limit) }

    package var limit: Int { texts.maxCount }
    package var count: Int { values.count }

    @inlinable
    package subscript(text: String) -> Value? {
        guard !values.isEmpty else { return nil }
        return text.withByteView { self[$0] }
    }

    /// The value remembered for the text whose UTF-8 bytes these are.
    @inlinable
    package subscript(bytes: ByteView) -> Value? {
        texts.number(of: bytes).map { values[$0] }
    }

    /// Remembers `value` for `text` (replacing what it had), unless the memo is full.
    package mutating func remember(_ value: Value, for text: String) {
        guard let (number, added) = text.withByteView({ texts.insert($0) }) else { return }
        if added { values.append(value) } else { values[number] = value }
    }
}
