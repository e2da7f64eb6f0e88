import AlmanacCore

/// Writes delimited text: fields quoted only when they must be (delimiter, quote, line break,
/// leading or trailing space), quotes doubled, chosen line ends; Excel-friendly by default
/// (UTF-8 with a BOM, CRLF).
public struct CSVWriter {
    public var delimiter: UInt8 = 0x2C
    public var lineEnding: [UInt8] = [0x0D, 0x0A]
    public var byteOrderMark = true
    public private(set) var bytes: [UInt8] = []

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
        if byteOrderMark { bytes = [0xEF, 0xBB, 0xBF] }
    }

    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Rows another writer of the same dialect wrote (a batch written on another thread).
    public mutating func append(written: [UInt8]) { bytes += written }

    /// The bytes written so far, leaving the writer empty.
    public mutating func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Hands the bytes written so far to `body`, then starts empty, reusing the buffer (for
    /// output written in pieces).
    public mutating func flush<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
        try body(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func write(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(delimiter) }
            append(field)
        }
        bytes.append(contentsOf: lineEnding)
    }

    /// Rows of fields given as bytes; with `guardsFormulas`, text a spreadsheet would run gets
    /// its apostrophe (`FormulaGuard.cell`; only fields whose first byte may trigger are looked at).
    public mutating func write(_ rows: TableRows, guardsFormulas: Bool) {
        rows.forEachRow { fields in
            for index in 0..<fields.count {
                if index > 0 { bytes.append(delimiter) }
                let field = fields[index]
                if guardsFormulas, let first = field.first, FormulaGuard.mayTrigger(first: first) {
                    append(FormulaGuard.cell(String(decoding: field, as: UTF8.self)))
                } else {
                    append(utf8: field)
                }
            }
            bytes.append(contentsOf: lineEnding)
        }
    }

    private mutating func append(_ field: String) {
        if field.utf8.withContiguousStorageIfAvailable({ append(utf8: $0) }) == nil {
            var copy = field
            copy.withUTF8 { append(utf8: $0) }
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

    private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        var (needsQuotes, hasQuote) = Self.specials(utf8, delimiter: delimiter)
        if let first = utf8.first, first == 0x20 || first == 0x09 { needsQuotes = true }
        if let last = utf8.last, last == 0x20 || last == 0x09 { needsQuotes = true }
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        if hasQuote {
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0x22)
    }
}
