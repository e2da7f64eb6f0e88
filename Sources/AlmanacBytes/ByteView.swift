#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only view of bytes that a reader walks by index without bounds checks: the readers'
/// hot loops (iCalendar lines, CSV fields, JSON strings) see `ByteView`, never a pointer.
///
/// A view is valid only inside the closure that lends it (`[UInt8].withByteView`,
/// `String.withByteView`); readers index it within `0..<count`, which they check themselves (a
/// debug build checks every access).
@usableFromInline package struct ByteView {
    @usableFromInline let base: UnsafeBufferPointer<UInt8>

    @inlinable
    init(_ base: UnsafeBufferPointer<UInt8>) { self.base = base }

    /// No bytes.
    package static var empty: ByteView { ByteView(UnsafeBufferPointer(start: nil, count: 0)) }

    @inlinable
    package var count: Int { base.count }

    @inlinable
    package var isEmpty: Bool { base.isEmpty }

    @inlinable
    package subscript(index: Int) -> UInt8 {
        @inline(__always) get {
            assert(index >= 0 && index < base.count, "ByteView index out of range")
            return base.baseAddress.unsafelyUnwrapped[index]
        }
    }

    /// The bytes `range` holds, as a view whose indices start at 0.
    @inlinable
    package subscript(range: Range<Int>) -> ByteView {
        @inline(__always) get {
            assert(range.lowerBound >= 0 && range.upperBound <= base.count, "ByteView range out of range")
            return ByteView(UnsafeBufferPointer(rebasing: base[range]))
        }
    }

    /// The first byte, or nil.
    @inlinable
    package var first: UInt8? { base.first }

    /// The last byte, or nil.
    @inlinable
    package var last: UInt8? { base.last }

    /// The text of `start..<end` (invalid UTF-8 repaired with U+FFFD).
    @inlinable
    package func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: base[start..<end]), as: UTF8.self)
    }

    /// The text of all the bytes.
    @inlinable
    package var string: String { String(decoding: base, as: UTF8.self) }

    /// A copy of `start..<end`.
    @inlinable
    package func bytes(_ start: Int, _ end: Int) -> [UInt8] { Array(base[start..<end]) }

    /// A copy of all the bytes.
    @inlinable
    package var array: [UInt8] { Array(base) }

    /// Appends `start..<end` to `output` in one copy.
    @inlinable
    package func append(_ start: Int, _ end: Int, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: base[start..<end]))
    }

    /// The index of the first `byte` at or after `start` (the C library's `memchr`), or `count`.
    @inlinable
    package func firstIndex(of byte: UInt8, from start: Int = 0) -> Int {
        ByteScan.firstIndex(of: byte, in: base, from: start)
    }

    /// The index of the first byte `predicate` accepts, or `count`.
    @inlinable
    package func firstIndex(where predicate: (UInt8) -> Bool) -> Int {
        var index = 0
        while index < count, !predicate(self[index]) { index += 1 }
        return index
    }

    /// The first character's Unicode scalar (nil when empty or not valid UTF-8 there).
    package var firstScalar: Unicode.Scalar? { scalar(startingAt: 0) }

    /// The last character's Unicode scalar (nil when empty or not valid UTF-8 there).
    package var lastScalar: Unicode.Scalar? {
        guard count > 0 else { return nil }
        var start = count - 1
        while start > 0, count - start < 4, UTF8Validation.isContinuation(self[start]) { start -= 1 }
        return scalar(startingAt: start)
    }

    /// The scalar whose UTF-8 starts at `start`, decoded from its bytes.
    package func scalar(startingAt start: Int) -> Unicode.Scalar? {
        guard start < count else { return nil }
        let length = UTF8Validation.sequenceLength(lead: self[start])
        guard start + length <= count else { return nil }
        var decoder = UTF8()
        var iterator = self[start..<start + length].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// Whether `word`'s bytes occur anywhere in the view: each place its first byte is found
    /// (`memchr`), the rest compared.
    package func contains(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard length > 0, let base = base.baseAddress else { return length == 0 }
        let first = word.utf8Start.pointee
        var start = 0
        while start + length <= count {
            let hit = firstIndex(of: first, from: start)
            guard hit + length <= count else { return false }
            if memcmp(base + hit, word.utf8Start, length) == 0 { return true }
            start = hit + 1
        }
        return false
    }

    /// Whether `start..<end` holds exactly `word`'s bytes.
    @inlinable @inline(__always)
    package func matches(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        var index = 0
        while index < end - start {
            if base[start + index] != word.utf8Start[index] { return false }
            index += 1
        }
        return true
    }

    /// Whether `start..<end` holds `word`'s bytes, ASCII letters in either case (`word` is
    /// written in capitals, as iCalendar's names are).
    @inlinable @inline(__always)
    package func matchesIgnoringCase(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        var index = 0
        while index < end - start {
            if !ASCII.equalIgnoringCase(base[start + index], word.utf8Start[index]) { return false }
            index += 1
        }
        return true
    }

    /// Whether the bytes equal `other`'s.
    @inlinable
    package func elementsEqual(_ other: ByteView) -> Bool {
        count == other.count && (count == 0 || memcmp(base.baseAddress!, other.base.baseAddress!, count) == 0)
    }

    /// Whether the bytes equal those of `text` (its UTF-8).
    @inlinable
    package func elementsEqual(_ text: String) -> Bool {
        text.utf8.count == count && text.withByteView { elementsEqual($0) }
    }

    /// Loops over every byte.
    @inlinable
    package func forEach(_ body: (UInt8) throws -> Void) rethrows { try base.forEach(body) }

    /// The eight bytes at `index` as one little-endian word (`index + 8 <= count`).
    @inlinable @inline(__always)
    package func word(at index: Int) -> UInt64 {
        UnsafeRawPointer(base.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self).littleEndian
    }
}

extension ByteView: Sequence {
    @usableFromInline package struct Iterator: IteratorProtocol {
        @usableFromInline let view: ByteView
        @usableFromInline var index = 0

        @inlinable init(view: ByteView) { self.view = view }

        @inlinable
        package mutating func next() -> UInt8? {
            guard index < view.count else { return nil }
            defer { index += 1 }
            return view[index]
        }
    }

    @inlinable
    package func makeIterator() -> Iterator { Iterator(view: self) }

    @inlinable
    package var underestimatedCount: Int { count }
}

extension String {
    /// A string made by writing its UTF-8 in place: `body` appends at most `capacity` bytes to the
    /// `StringBytes` it is given (invalid UTF-8 is repaired with U+FFFD, as `String(decoding:)`
    /// does). One allocation, no array in between.
    package init(capacity: Int, writing body: (inout StringBytes) -> Void) {
        self.init(unsafeUninitializedCapacity: capacity) { buffer in
            var bytes = StringBytes(buffer: buffer)
            body(&bytes)
            return bytes.count
        }
    }
}

/// The bytes of a string being made (`String(capacity:writing:)`), appended in order.
package struct StringBytes: ~Copyable {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline var count = 0

    @inlinable
    init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        precondition(count < buffer.count, "StringBytes: more bytes than the capacity")
        buffer[count] = byte
        count += 1
    }

    /// Appends `view[start..<end]`.
    @inlinable @inline(__always)
    package mutating func append(_ view: ByteView, _ start: Int, _ end: Int) {
        guard end > start else { return }
        precondition(count + end - start <= buffer.count, "StringBytes: more bytes than the capacity")
        UnsafeMutableRawPointer(buffer.baseAddress! + count).copyMemory(from: view.base.baseAddress! + start, byteCount: end - start)
        count += end - start
    }
}

/// A read-only view of an array's elements, lent for the length of a closure
/// (`[T].withElementView`) and indexed without bounds checks (a debug build checks them): for a
/// reader's per-record tables (a CSV record's field ranges) read in its hot loop.
@usableFromInline package struct ElementView<Element> {
    @usableFromInline let base: UnsafeBufferPointer<Element>

    @inlinable
    init(_ base: UnsafeBufferPointer<Element>) { self.base = base }

    @inlinable
    package var count: Int { base.count }

    @inlinable
    package subscript(index: Int) -> Element {
        @inline(__always) get {
            assert(index >= 0 && index < base.count, "ElementView index out of range")
            return base.baseAddress.unsafelyUnwrapped[index]
        }
    }
}

extension Array {
    /// Lends the array's elements as a view for the length of `body`.
    @inlinable
    package func withElementView<Result, Failure: Error>(_ body: (ElementView<Element>) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeBufferPointer { (buffer) throws(Failure) in try body(ElementView(buffer)) }
    }
}

extension Array where Element == UInt8 {
    /// Lends the array's bytes as a view for the length of `body`.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeBufferPointer { (buffer) throws(Failure) in try body(ByteView(buffer)) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Lends the slice's bytes as a view (indices from 0) for the length of `body`.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeBufferPointer { (buffer) throws(Failure) in try body(ByteView(buffer)) }
    }
}

extension String {
    /// Lends the text's UTF-8 as a view for the length of `body` (a string not stored as
    /// contiguous UTF-8 is copied first). Through `withUTF8` on a copy, not a `Substring` of the
    /// whole: slicing checked the range's indices, a twentieth of writing a sheet's cells.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        var text = self
        let result: Swift.Result<Result, Failure> = text.withUTF8 { buffer in
            do throws(Failure) { return .success(try body(ByteView(buffer))) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension Substring {
    /// Lends the text's UTF-8 as a view for the length of `body`.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        var text = self
        let result: Swift.Result<Result, Failure> = text.withUTF8 { buffer in
            do throws(Failure) { return .success(try body(ByteView(buffer))) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension ByteView {
    /// Bytes a C library lends for the length of a callback: a NUL-terminated name.
    @inlinable
    package static func lending(_ text: UnsafePointer<CChar>) -> ByteView {
        lending(text, count: strlenOf(text))
    }

    /// `count` bytes a C library lends for the length of a callback.
    @inlinable
    package static func lending(_ bytes: UnsafePointer<CChar>, count: Int) -> ByteView {
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { ByteView(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// `count` bytes a C library lends for the length of a callback.
    @inlinable
    package static func lending(_ bytes: UnsafePointer<UInt8>, count: Int) -> ByteView {
        ByteView(UnsafeBufferPointer(start: bytes, count: count))
    }

    @usableFromInline
    static func strlenOf(_ text: UnsafePointer<CChar>) -> Int {
        var length = 0
        while text[length] != 0 { length += 1 }
        return length
    }
}

/// Name and value pairs lent for the length of a callback (an XML element's attributes): from
/// a C library (names NUL-terminated, values with their lengths), or from a reader of our own
/// (spans of its buffers).
package struct LentPairs {
    /// Where one pair lies: the name in the reader's input, the value in its input or in its
    /// scratch buffer (a value whose entities were resolved).
    package struct Span {
        package var nameStart: Int32, nameEnd: Int32
        package var valueStart: Int32, valueEnd: Int32
        package var valueInScratch: Bool

        package init(nameStart: Int32, nameEnd: Int32, valueStart: Int32, valueEnd: Int32, valueInScratch: Bool) {
            (self.nameStart, self.nameEnd, self.valueStart, self.valueEnd, self.valueInScratch) =
                (nameStart, nameEnd, valueStart, valueEnd, valueInScratch)
        }
    }

    private enum Storage {
        case c(pairs: UnsafePointer<UnsafePointer<CChar>?>?, lengths: UnsafePointer<Int32>?)
        case spans(input: ByteView, scratch: ByteView, spans: ElementView<Span>)
    }

    private let storage: Storage
    package let count: Int

    package init(pairs: UnsafePointer<UnsafePointer<CChar>?>?, lengths: UnsafePointer<Int32>?, count: Int) {
        storage = .c(pairs: pairs, lengths: lengths)
        self.count = count
    }

    package init(input: ByteView, scratch: ByteView, spans: ElementView<Span>) {
        storage = .spans(input: input, scratch: scratch, spans: spans)
        count = spans.count
    }

    /// The value whose name is `name`.
    package func value(_ name: StaticString) -> ByteView? {
        switch storage {
        case .c(let pairs, let lengths):
            guard let pairs, let lengths else { return nil }
            for index in 0..<count {
                guard let key = pairs[index * 2], let value = pairs[index * 2 + 1] else { continue }
                let lent = ByteView.lending(key)
                if lent.matches(0, lent.count, name) { return ByteView.lending(value, count: Int(lengths[index])) }
            }
        case .spans(let input, let scratch, let spans):
            for index in 0..<count {
                let span = spans[index]
                if input.matches(Int(span.nameStart), Int(span.nameEnd), name) {
                    return (span.valueInScratch ? scratch : input)[Int(span.valueStart)..<Int(span.valueEnd)]
                }
            }
        }
        return nil
    }

    /// Every pair, in order (for tests and diagnostics).
    package func forEach(_ body: (ByteView, ByteView) -> Void) {
        switch storage {
        case .c(let pairs, let lengths):
            guard let pairs, let lengths else { return }
            for index in 0..<count {
                guard let key = pairs[index * 2], let value = pairs[index * 2 + 1] else { continue }
                body(ByteView.lending(key), ByteView.lending(value, count: Int(lengths[index])))
            }
        case .spans(let input, let scratch, let spans):
            for index in 0..<count {
                let span = spans[index]
                body(input[Int(span.nameStart)..<Int(span.nameEnd)], (span.valueInScratch ? scratch : input)[Int(span.valueStart)..<Int(span.valueEnd)])
            }
        }
    }
}
