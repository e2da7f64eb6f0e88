#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding bytes eight at a time: the one place Almanac's readers and writers look through text
/// a word at a time (line breaks in iCalendar, a CSV field's end, the bytes a JSON string must
/// escape, non-ASCII or zero bytes).
///
/// Every scan asks a `ByteMatcher` which lanes of a 64-bit word hold a byte it wants, with the
/// classic has-zero-byte test: XOR the word with the wanted byte repeated, and a lane that held
/// it becomes zero; `(x - 0x01…) & ~x & 0x80…` then flags it. The lowest flag is exact (a borrow
/// only disturbs lanes above a true zero), which is all a search for the first match needs.
@usableFromInline package enum ByteScan {
    /// 0x01 in every lane.
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// The top bit of every lane.
    @inlinable static var tops: UInt64 { 0x8080_8080_8080_8080 }

    /// `byte` in every lane.
    @inlinable @inline(__always)
    package static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// The top bit of each lane of `word` that equals the byte `pattern` repeats (the lowest one
    /// exact).
    @inlinable @inline(__always)
    package static func lanes(of word: UInt64, equalTo pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return (x &- ones) & ~x & tops
    }

    /// The top bit of each lane of `word` below `limit` (≤ 0x80; the lowest one exact).
    @inlinable @inline(__always)
    package static func lanes(of word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- repeated(limit)) & ~word & tops
    }

    /// The index of the first byte at or after `start` that `matcher` wants, or `end`.
    @inlinable @inline(__always)
    package static func firstIndex(in view: ByteView, from start: Int, to end: Int, where matcher: some ByteMatcher) -> Int {
        var index = start
        if let base = view.base.baseAddress {
            while index + 8 <= end {
                let found = matcher.lanes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
                if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end, !matcher.matches(view[index]) { index += 1 }
        return index
    }

    /// `firstIndex`, also collecting in `high` the top bits of the bytes passed over (a caller
    /// that must know whether its text is ASCII learns it for free).
    @inlinable @inline(__always)
    package static func firstIndex(in view: ByteView, from start: Int, to end: Int, where matcher: some ByteMatcher,
                                   collectingHighBits high: inout UInt64) -> Int {
        var index = start
        if let base = view.base.baseAddress {
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
                let found = matcher.lanes(word)
                if found != 0 {
                    let offset = found.trailingZeroBitCount >> 3
                    // Only the bytes before the match were passed over.
                    high |= offset == 0 ? 0 : word & (tops >> UInt64(64 - offset * 8))
                    return index + offset
                }
                high |= word & tops
                index += 8
            }
        }
        while index < end {
            let byte = view[index]
            if matcher.matches(byte) { break }
            high |= UInt64(byte & ASCII.firstNonASCII)
            index += 1
        }
        return index
    }

    /// Whether any byte of `view` is one `matcher` wants.
    @inlinable
    package static func contains(in view: ByteView, where matcher: some ByteMatcher) -> Bool {
        firstIndex(in: view, from: 0, to: view.count, where: matcher) < view.count
    }

    /// The index of the first `byte` at or after `start` (the C library's `memchr`), or the count.
    @inlinable
    static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count, let base = buffer.baseAddress,
              let found = memchr(base + start, Int32(byte), buffer.count - start) else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether the bytes hold a zero byte (UTF-16 and UTF-32 text does; UTF-8 text almost never).
    package static func containsZero(_ view: ByteView) -> Bool {
        view.firstIndex(of: ASCII.null) < view.count
    }

    /// Whether every byte is ASCII.
    package static func isASCII(_ view: ByteView) -> Bool {
        !contains(in: view, where: NonASCII())
    }
}

/// Which bytes a scan stops at: a word's lanes (`lanes`, from `ByteScan.lanes`) and a single byte
/// (`matches`), saying the same.
@usableFromInline package protocol ByteMatcher {
    func lanes(_ word: UInt64) -> UInt64
    func matches(_ byte: UInt8) -> Bool
}

/// Any of two bytes (a line break: LF or CR).
@usableFromInline package struct AnyOf2: ByteMatcher, Sendable {
    @usableFromInline let a: UInt8, b: UInt8
    @usableFromInline let wordA: UInt64, wordB: UInt64

    @inlinable
    package init(_ a: UInt8, _ b: UInt8) {
        (self.a, self.b) = (a, b)
        (wordA, wordB) = (ByteScan.repeated(a), ByteScan.repeated(b))
    }

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 { ByteScan.lanes(of: word, equalTo: wordA) | ByteScan.lanes(of: word, equalTo: wordB) }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool { byte == a || byte == b }

    /// LF or CR.
    @inlinable package static var lineBreak: AnyOf2 { AnyOf2(ASCII.lineFeed, ASCII.carriageReturn) }
}

/// Any of three bytes (a CSV field's end: the delimiter, LF or CR).
@usableFromInline package struct AnyOf3: ByteMatcher, Sendable {
    @usableFromInline let a: UInt8, b: UInt8, c: UInt8
    @usableFromInline let wordA: UInt64, wordB: UInt64, wordC: UInt64

    @inlinable
    package init(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        (self.a, self.b, self.c) = (a, b, c)
        (wordA, wordB, wordC) = (ByteScan.repeated(a), ByteScan.repeated(b), ByteScan.repeated(c))
    }

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 {
        ByteScan.lanes(of: word, equalTo: wordA) | ByteScan.lanes(of: word, equalTo: wordB) | ByteScan.lanes(of: word, equalTo: wordC)
    }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool { byte == a || byte == b || byte == c }
}

/// Any of four bytes (what makes a CSV field quoted: the delimiter, a quote, LF or CR).
@usableFromInline package struct AnyOf4: ByteMatcher, Sendable {
    @usableFromInline let a: UInt8, b: UInt8, c: UInt8, d: UInt8
    @usableFromInline let wordA: UInt64, wordB: UInt64, wordC: UInt64, wordD: UInt64

    @inlinable
    package init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
        (wordA, wordB, wordC, wordD) = (ByteScan.repeated(a), ByteScan.repeated(b), ByteScan.repeated(c), ByteScan.repeated(d))
    }

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 {
        ByteScan.lanes(of: word, equalTo: wordA) | ByteScan.lanes(of: word, equalTo: wordB)
            | ByteScan.lanes(of: word, equalTo: wordC) | ByteScan.lanes(of: word, equalTo: wordD)
    }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool { byte == a || byte == b || byte == c || byte == d }
}

/// The bytes a JSON string literal escapes: a quote, a backslash, a control character (and a
/// slash, for writers that escape it).
@usableFromInline package struct JSONEscapes: ByteMatcher, Sendable {
    @usableFromInline let slash: Bool

    @inlinable
    package init(slash: Bool) { self.slash = slash }

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 {
        let found = ByteScan.lanes(of: word, equalTo: ByteScan.repeated(ASCII.quote)) | ByteScan.lanes(of: word, equalTo: ByteScan.repeated(ASCII.backslash))
            | ByteScan.lanes(of: word, below: ASCII.space)
        return slash ? found | ByteScan.lanes(of: word, equalTo: ByteScan.repeated(ASCII.slash)) : found
    }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool {
        byte == ASCII.quote || byte == ASCII.backslash || byte < ASCII.space || (slash && byte == ASCII.slash)
    }
}

/// A byte that is not ASCII (its top bit set).
@usableFromInline package struct NonASCII: ByteMatcher, Sendable {
    @inlinable
    package init() {}

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 { word & ByteScan.tops }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool { byte >= ASCII.firstNonASCII }
}

/// What a terminal may act on: a control character (below a space), DEL, and the first byte of
/// U+0080–U+00BF (C2, which C1 controls begin with; the rest of that range is looked at closer).
@usableFromInline package struct TerminalControls: ByteMatcher, Sendable {
    @inlinable
    package init() {}

    @inlinable @inline(__always)
    package func lanes(_ word: UInt64) -> UInt64 {
        ByteScan.lanes(of: word, below: ASCII.space) | ByteScan.lanes(of: word, equalTo: ByteScan.repeated(ASCII.delete))
            | ByteScan.lanes(of: word, equalTo: ByteScan.repeated(Self.c1Lead))
    }

    @inlinable @inline(__always)
    package func matches(_ byte: UInt8) -> Bool { byte < ASCII.space || byte == ASCII.delete || byte == Self.c1Lead }

    /// The first byte of U+0080–U+00BF in UTF-8.
    @inlinable static var c1Lead: UInt8 { 0xC2 }
}
