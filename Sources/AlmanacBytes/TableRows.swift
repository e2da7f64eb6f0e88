/// Rows of a table as text, in one buffer: what codecs that stream hand over, a batch at a time,
/// so that a field goes from a reader to a writer without becoming a `String` (a million-row CSV
/// has ten million fields) and a batch crosses between threads as one value. `rows[i]` makes the
/// strings of a row when they are needed.
public struct TableRows: Hashable, Sendable, RandomAccessCollection {
    /// The fields' bytes in `bytes[..<used]`; the rest is room already made, so that a field is
    /// copied in with one `memcpy` (a million-row CSV appends ten million fields, and
    /// `append(contentsOf:)` adds its checks to each).
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var used = 0
    /// The end of each field in `bytes`; a field starts where the one before it ends.
    @usableFromInline var fieldEnds: [Int32] = []
    /// The end of each row in `fieldEnds`.
    @usableFromInline var rowEnds: [Int32] = []

    public init() {}

    public init(_ rows: some Sequence<[String]>) {
        for row in rows { append(row) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowEnds.count }
    /// The bytes the fields hold, for batching by size.
    public var byteCount: Int { used }
    /// How many fields the rows have in all.
    public var fieldCount: Int { fieldEnds.count }

    /// A row's fields as strings.
    public subscript(row: Int) -> [String] {
        var result: [String] = []
        withRow(row) { fields in
            result.reserveCapacity(fields.count)
            for index in 0..<fields.count { result.append(fields.string(index)) }
        }
        return result
    }

    /// Calls `body` with one row's fields, valid inside it.
    @inlinable
    public func withRow<R, E: Error>(_ row: Int, _ body: (Fields) throws(E) -> R) throws(E) -> R {
        try bytes.withUnsafeBufferPointer { (bytes) throws(E) -> R in
            try fieldEnds.withUnsafeBufferPointer { (ends) throws(E) -> R in
                let first = row == 0 ? 0 : Int(rowEnds[row - 1])
                return try body(Fields(bytes: bytes, ends: ends, first: first, count: Int(rowEnds[row]) - first))
            }
        }
    }

    /// Calls `body` with each row's fields in order (one buffer access for the batch).
    @inlinable
    public func forEachRow<E: Error>(_ body: (Fields) throws(E) -> Void) throws(E) {
        // A one-byte state, not a `Void`: every zero-sized value has the same address, and
        // ThreadSanitizer reported two threads' `inout` accesses to it as a race.
        var unused: UInt8 = 0
        try forEachRow(into: &unused) { (fields, _) throws(E) in try body(fields) }
    }

    /// The same, with a value the rows are read into handed to `body` as `inout` (a value a
    /// closure captures is copied when it is passed on; an argument is not).
    @inlinable
    public func forEachRow<State: ~Copyable, E: Error>(into state: inout State, _ body: (Fields, inout State) throws(E) -> Void) throws(E) {
        try bytes.withUnsafeBufferPointer { (bytes) throws(E) in
            try fieldEnds.withUnsafeBufferPointer { (ends) throws(E) in
                var first = 0
                for end in rowEnds {
                    try body(Fields(bytes: bytes, ends: ends, first: first, count: Int(end) - first), &state)
                    first = Int(end)
                }
            }
        }
    }

    /// The fields of one row, as bytes.
    public struct Fields {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        @usableFromInline let ends: UnsafeBufferPointer<Int32>
        @usableFromInline let first: Int
        public let count: Int

        @inlinable
        init(bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>, first: Int, count: Int) {
            self.bytes = bytes
            self.ends = ends
            self.first = first
            self.count = count
        }

        /// The field's bytes.
        @inlinable
        package subscript(index: Int) -> ByteView {
            let field = first + index
            let start = field == 0 ? 0 : Int(ends[field - 1])
            return ByteView(UnsafeBufferPointer(rebasing: bytes[start..<Int(ends[field])]))
        }

        @inlinable
        public func string(_ index: Int) -> String { self[index].string }
    }

    public mutating func append(_ row: [String]) {
        for field in row { appendField(field) }
        endRow()
    }

    /// Appends a field to the row being built.
    public mutating func appendField(_ field: String) {
        field.withByteView { appendField($0) }
    }

    /// Appends a field to the row being built (the caller vouches the bytes are valid UTF-8).
    @inlinable
    package mutating func appendField(_ field: ByteView) {
        let end = used + field.count
        if end > bytes.count { makeRoom(for: end) }
        bytes.overwrite(at: used, with: field)
        used = end
        fieldEnds.append(Int32(truncatingIfNeeded: end))
    }

    @usableFromInline @inline(never)
    mutating func makeRoom(for count: Int) {
        bytes.makeRoom(Swift.max(count, bytes.count * 2, 64))
    }

    /// Ends the row being built.
    @inlinable
    public mutating func endRow() {
        rowEnds.append(Int32(truncatingIfNeeded: fieldEnds.count))
    }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        if !keepingCapacity { bytes = [] }
        used = 0
        fieldEnds.removeAll(keepingCapacity: keepingCapacity)
        rowEnds.removeAll(keepingCapacity: keepingCapacity)
    }

    public static func == (lhs: TableRows, rhs: TableRows) -> Bool {
        lhs.bytes[..<lhs.used] == rhs.bytes[..<rhs.used] && lhs.fieldEnds == rhs.fieldEnds && lhs.rowEnds == rhs.rowEnds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes[..<used])
        hasher.combine(rowEnds)
    }
}

extension Array where Element == UInt8 {
    /// Copies `view`'s bytes over `self[offset..<offset + view.count]`, which the array holds
    /// (`makeRoom` first): a short copy (`ShortCopy`), no growth.
    @inlinable
    package mutating func overwrite(at offset: Int, with view: ByteView) {
        guard let source = view.base.baseAddress, view.count > 0 else { return }
        precondition(offset >= 0 && offset + view.count <= count, "overwrite past the array's end")
        withUnsafeMutableBufferPointer { ShortCopy.copy(source, to: $0.baseAddress! + offset, count: view.count) }
    }

    /// Makes the array `count` bytes long, the new bytes zeros, in place when its capacity allows.
    /// The zeros are copied from a page of them: appending `repeatElement(0, count:)` runs byte by
    /// byte in debug builds (and under the sanitizers), while a buffer is copied with `memcpy`
    /// in every build.
    @usableFromInline package mutating func makeRoom(_ count: Int) {
        guard count > self.count else { return }
        reserveCapacity(count)
        while self.count < count {
            let more = Swift.min(zeroPage.count, count - self.count)
            zeroPage.withUnsafeBufferPointer { append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<more])) }
        }
    }
}

private let zeroPage = [UInt8](repeating: 0, count: 1 << 16)
