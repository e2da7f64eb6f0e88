import AlmanacCore

/// Writes delimited text: fields quoted only when they must be (delimiter, quote, line break,
/// leading or trailing space), quotes doubled, chosen line ends; Excel-friendly by default
/// (UTF-8 with a BOM, CRLF).
public struct CSVWriter {
    public var delimiter: UInt8 = 0x2C
    public var lineEnding: [UInt8] = [0x0D, 0x0A]
    public var byteOrderMark = true
    /// What is written is `storage[..<used]`; the rest is room made ahead (zeros), so that a
    /// batch of rows is written through one pointer (an `append` per field and per delimiter
    /// cost more than the bytes they copied).
    private var storage: [UInt8] = []
    private var used = 0

    /// How a file is written: delimiter, line ends, byte order mark.
    public struct Dialect: Hashable, Sendable {
        public var delimiter: UInt8
        public var lineEnding: String
        public var byteOrderMark: Bool

        public init(delimiter: UInt8 = 0x2C, lineEnding: String = "\r\n", byteOrderMark: Bool = true) {
            self.delimiter = delimiter
            self.lineEnding = lineEnding
            self.byteOrderMark = byteOrderMark
        }
    }

    public init(_ dialect: Dialect = Dialect()) {
        self.delimiter = dialect.delimiter
        self.lineEnding = Array(dialect.lineEnding.utf8)
        self.byteOrderMark = dialect.byteOrderMark
        if byteOrderMark { append(written: [0xEF, 0xBB, 0xBF]) }
    }

    /// How many bytes are written so far.
    public var byteCount: Int { used }

    public mutating func reserve(_ count: Int) { makeRoom(count) }

    /// Makes room for `count` more bytes.
    private mutating func makeRoom(_ count: Int) {
        let needed = used + count
        guard needed > storage.count else { return }
        storage.makeRoom(Swift.max(needed, storage.count * 2, 256))
    }

    /// Rows another writer of the same dialect wrote (a batch written on another thread).
    public mutating func append(written: [UInt8]) {
        guard !written.isEmpty else { return }
        makeRoom(written.count)
        let at = used
        storage.withUnsafeMutableBufferPointer { out in
            written.withUnsafeBufferPointer { (out.baseAddress! + at).update(from: $0.baseAddress!, count: $0.count) }
        }
        used += written.count
    }

    /// The bytes written so far, leaving the writer empty.
    public mutating func take() -> [UInt8] {
        storage.removeSubrange(used...)
        defer { (storage, used) = ([], 0) }
        return storage
    }

    /// Hands the bytes written so far to `body`, then starts empty, reusing the buffer (for
    /// output written in pieces).
    public mutating func flush<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
        storage.removeSubrange(used...)
        try body(storage)
        storage.removeAll(keepingCapacity: true)
        used = 0
    }

    public mutating func write(_ fields: [String]) {
        makeRoom(fields.reduce(lineEnding.count) { $0 + 2 * $1.utf8.count + 3 })
        let (delimiter, lineEnding, start) = (self.delimiter, self.lineEnding, used)
        used = storage.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            var at = start
            for (index, field) in fields.enumerated() {
                if index > 0 { out[at] = delimiter; at += 1 }
                var field = field
                field.withUTF8 { at = Self.put($0, at: at, into: out, delimiter: delimiter) }
            }
            for byte in lineEnding { out[at] = byte; at += 1 }
            assert(at <= buffer.count, "CSVWriter wrote past the room it made")
            return at
        }
    }

    /// Rows of fields given as bytes; with `guardsFormulas`, text a spreadsheet would run gets
    /// its apostrophe (`FormulaGuard.cell`; only fields whose first byte may trigger are looked at).
    public mutating func write(_ rows: TableRows, guardsFormulas: Bool) {
        // At most: every byte doubled, an apostrophe, two quotes and a delimiter a field, and the line ends.
        makeRoom(2 * rows.byteCount + 4 * rows.fieldCount + lineEnding.count * rows.count)
        let (delimiter, lineEnding, start) = (self.delimiter, self.lineEnding, used)
        used = storage.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            var at = start
            rows.forEachRow { fields in
                for index in 0..<fields.count {
                    if index > 0 { out[at] = delimiter; at += 1 }
                    let field = fields[index]
                    // The apostrophe is written before the field's own bytes: the room made
                    // holds, whatever the bytes are.
                    let apostrophe = guardsFormulas && field.first.map(FormulaGuard.mayTrigger(first:)) == true
                        && FormulaGuard.guardsCell(String(decoding: field, as: UTF8.self))
                    at = Self.put(field, at: at, into: out, delimiter: delimiter, apostrophe: apostrophe)
                }
                for byte in lineEnding { out[at] = byte; at += 1 }
            }
            assert(at <= buffer.count, "CSVWriter wrote past the room it made")
            return at
        }
    }

    /// Whether a field holds the delimiter, a quote or a line break (then it is quoted), and
    /// whether it holds a quote (then quotes are doubled); eight bytes at a time.
    @inline(__always)
    static func specials(_ utf8: UnsafeBufferPointer<UInt8>, delimiter: UInt8) -> (special: Bool, quote: Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let delimiters = UInt64(delimiter) &* ones, quotes: UInt64 = 0x2222_2222_2222_2222
        let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A, returns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        var special = false
        var index = 0
        if let base = utf8.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= utf8.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let a = word ^ delimiters, b = word ^ lineFeeds, c = word ^ returns, d = word ^ quotes
                if ((a &- ones) & ~a | (b &- ones) & ~b | (c &- ones) & ~c | (d &- ones) & ~d) & tops != 0 {
                    special = true
                    break
                }
                index += 8
            }
        }
        if !special {
            while index < utf8.count {
                let byte = utf8[index]
                if byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                    special = true
                    break
                }
                index += 1
            }
        }
        guard special else { return (false, false) }
        // Rare: find out whether there is a quote to double.
        return (true, utf8.contains(0x22))
    }

    /// Writes one field at `at` (quoted only when it must be), after an apostrophe when asked
    /// (the formula guard), and returns where it ends; the caller has made room for twice its
    /// bytes, the apostrophe and two quotes.
    @inline(__always)
    private static func put(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int, into out: UnsafeMutablePointer<UInt8>, delimiter: UInt8,
                            apostrophe: Bool = false) -> Int {
        guard let base = utf8.baseAddress, !utf8.isEmpty else { return start }
        var (needsQuotes, hasQuote) = specials(utf8, delimiter: delimiter)
        let first = utf8[0], last = utf8[utf8.count - 1]
        if !apostrophe && (first == 0x20 || first == 0x09) || last == 0x20 || last == 0x09 { needsQuotes = true }
        var at = start
        guard needsQuotes else {
            if apostrophe { out[at] = 0x27; at += 1 }
            (out + at).update(from: base, count: utf8.count)
            return at + utf8.count
        }
        out[at] = 0x22
        at += 1
        if apostrophe { out[at] = 0x27; at += 1 }
        if hasQuote {
            for byte in utf8 {
                out[at] = byte
                at += 1
                if byte == 0x22 { out[at] = 0x22; at += 1 }
            }
        } else {
            (out + at).update(from: base, count: utf8.count)
            at += utf8.count
        }
        out[at] = 0x22
        return at + 1
    }
}
