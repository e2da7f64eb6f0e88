/// Output bytes in storage of their own, grown by doubling and written through directly: the one
/// place Almanac's writers (JSON, CSV) keep bytes they are producing. Appending piece by piece to
/// an array (a quote, a delimiter, two spaces of indentation) cost more than the bytes it copied;
/// here each piece costs a capacity check and a copy.
///
/// Writers reserve room for what they are about to write when they know it (a CSV row: twice its
/// bytes), and then append; every append checks its room all the same.
package struct ByteWriter: ~Copyable {
    @usableFromInline var pointer: UnsafeMutablePointer<UInt8>
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int

    package init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        pointer = .allocate(capacity: self.capacity)
    }

    deinit { pointer.deallocate() }

    /// How many bytes are written and not yet taken.
    @inlinable
    package var count: Int { used }

    /// The last byte written, if any.
    package var last: UInt8? { used > 0 ? pointer[used - 1] : nil }

    /// Makes room for `more` bytes.
    @inlinable @inline(__always)
    package mutating func reserve(_ more: Int) {
        if used + more > capacity { grow(to: used + more) }
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.initialize(from: pointer, count: used)
        pointer.deallocate()
        pointer = larger
        capacity = grown
    }

    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        pointer[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (pointer + used).initialize(from: text.utf8Start, count: length)
        used += length
    }

    @inlinable
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withByteView { append($0) }
    }

    @inlinable @inline(__always)
    package mutating func append(_ view: ByteView) {
        guard let base = view.base.baseAddress, view.count > 0 else { return }
        reserve(view.count)
        ShortCopy.copy(base, to: pointer + used, count: view.count)
        used += view.count
    }

    /// Appends `view[start..<end]`.
    @inlinable @inline(__always)
    package mutating func append(_ view: ByteView, _ start: Int, _ end: Int) {
        append(view[start..<end])
    }

    /// Appends what `other` holds (a piece made once and written many times).
    @inlinable @inline(__always)
    package mutating func append(_ other: borrowing ByteWriter) {
        reserve(other.used)
        (pointer + used).initialize(from: other.pointer, count: other.used)
        used += other.used
    }

    /// A literal picks the `StaticString` overload (no string to look into); this one is for
    /// text made at run time.
    @inlinable @_disfavoredOverload
    package mutating func append(_ text: String) {
        text.withByteView { append($0) }
    }

    @inlinable @inline(__always)
    package mutating func append(repeating byte: UInt8, count: Int) {
        reserve(count)
        (pointer + used).initialize(repeating: byte, count: count)
        used += count
    }

    /// An integer's decimal digits (with a minus sign).
    package mutating func append(decimal number: Int) {
        reserve(20)
        used += Digits.write(number, to: pointer + used)
    }

    /// `text` as a JSON string literal, escaped as `escaping` says.
    package mutating func appendJSONString(_ text: ByteView, escaping: JSONValue.Escaping) {
        append(ASCII.quote)
        appendJSONEscaped(text, escaping: escaping)
        append(ASCII.quote)
    }

    /// `text` escaped as the inside of a JSON string literal (no quotes).
    package mutating func appendJSONEscaped(_ text: ByteView, escaping: JSONValue.Escaping) {
        reserve(JSONValue.quotedRoom(text.count))
        used += JSONValue.escape(text, escaping: escaping, to: pointer + used)
    }

    /// `YYYY-MM-DD`, and `THH:MM:SS` after it with a time: what `Digits.isoText` gives, without
    /// making a String of it (but for years outside 0…9999, which it writes).
    package mutating func appendISODate(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)?) {
        guard Digits.fitsISOLayout(year, month, day, time: time) else {
            append(Digits.isoText(year, month, day, time: time))
            return
        }
        reserve(Digits.isoDateTimeLength)
        used += Digits.writeISO(year, month, day, time: time, to: pointer + used)
    }

    /// Lends the bytes written so far as a view for the length of `body`.
    @inlinable
    package func withByteView<Result, Failure: Error>(_ body: (ByteView) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(ByteView(UnsafeBufferPointer(start: pointer, count: used)))
    }

    /// The bytes written so far; the writer starts again empty, keeping its storage.
    package mutating func take() -> [UInt8] {
        let result = Array(UnsafeBufferPointer(start: pointer, count: used))
        used = 0
        return result
    }

    /// Forgets what was written, keeping the storage.
    package mutating func removeAll() { used = 0 }
}
