import AlmanacCore

/// Writes delimited text: fields quoted only when they must be (delimiter, quote, line break,
/// leading or trailing space), quotes doubled, chosen line ends; Excel-friendly by default
/// (UTF-8 with a BOM, CRLF).
public struct CSVWriter: ~Copyable {
    public var delimiter: UInt8 = ASCII.comma {
        didSet { specials = Self.specials(delimiter) }
    }
    public var lineEnding: [UInt8] = [ASCII.carriageReturn, ASCII.lineFeed]
    public var byteOrderMark = true
    private var output = ByteWriter()
    /// What makes a field quoted: the delimiter, a quote, a line break (made once, not per field).
    private var specials = CSVWriter.specials(ASCII.comma)

    private static func specials(_ delimiter: UInt8) -> AnyOf4 {
        AnyOf4(delimiter, ASCII.quote, ASCII.lineFeed, ASCII.carriageReturn)
    }

    /// How a file is written: delimiter, line ends, byte order mark.
    public struct Dialect: Hashable, Sendable {
        public var delimiter: UInt8
        public var lineEnding: String
        public var byteOrderMark: Bool

        public init(delimiter: UInt8 = ASCII.comma, lineEnding: String = "\r\n", byteOrderMark: Bool = true) {
            self.delimiter = delimiter
            self.lineEnding = lineEnding
            self.byteOrderMark = byteOrderMark
        }
    }

    public init(_ dialect: Dialect = Dialect()) {
        self.delimiter = dialect.delimiter
        specials = Self.specials(dialect.delimiter)
        self.lineEnding = Array(dialect.lineEnding.utf8)
        self.byteOrderMark = dialect.byteOrderMark
        if byteOrderMark { output.append(UnicodeForm.utf8.byteOrderMark) }
    }

    /// How many bytes are written so far.
    public var byteCount: Int { output.count }

    /// Makes room for `count` more bytes.
    public mutating func reserve(_ count: Int) { output.reserve(count) }

    /// Rows another writer of the same dialect wrote (a batch written on another thread).
    public mutating func append(written: [UInt8]) { output.append(written) }

    /// The bytes written so far, leaving the writer empty.
    public mutating func take() -> [UInt8] { output.take() }

    /// Hands the bytes written so far to `body`, then starts empty, reusing the storage (for
    /// output written in pieces).
    public mutating func flush<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
        try body(output.take())
    }

    public mutating func write(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(delimiter) }
            field.withByteView { put($0) }
        }
        output.append(lineEnding)
    }

    /// Rows of fields given as bytes; with `guardsFormulas`, text a spreadsheet would run gets
    /// its apostrophe (`FormulaGuard.cell`; only fields whose first byte may trigger are looked at).
    public mutating func write(_ rows: TableRows, guardsFormulas: Bool) {
        // At most: every byte doubled, an apostrophe, two quotes and a delimiter a field, and the line ends.
        output.reserve(2 * rows.byteCount + 4 * rows.fieldCount + lineEnding.count * rows.count)
        rows.forEachRow(into: &self) { fields, writer in
            for index in 0..<fields.count {
                if index > 0 { writer.output.append(writer.delimiter) }
                let field = fields[index]
                let apostrophe = guardsFormulas && field.first.map(FormulaGuard.mayTrigger(first:)) == true
                    && FormulaGuard.guardsCell(field.string)
                writer.put(field, apostrophe: apostrophe)
            }
            writer.output.append(writer.lineEnding)
        }
    }

    /// Writes one field, quoted only when it must be, after an apostrophe when asked (the
    /// formula guard).
    @inline(__always)
    private mutating func put(_ field: ByteView, apostrophe: Bool = false) {
        guard let first = field.first else { return }
        let last = field[field.count - 1]
        let special = ByteScan.contains(in: field, where: specials)
        let needsQuotes = special || (!apostrophe && (first == ASCII.space || first == ASCII.tab)) || last == ASCII.space || last == ASCII.tab
        guard needsQuotes else {
            if apostrophe { output.append(ASCII.apostrophe) }
            output.append(field)
            return
        }
        output.append(ASCII.quote)
        if apostrophe { output.append(ASCII.apostrophe) }
        // Quotes doubled: the runs between them copied whole.
        var start = 0
        while start < field.count {
            let quote = field.firstIndex(of: ASCII.quote, from: start)
            output.append(field, start, quote)
            guard quote < field.count else { break }
            output.append(ASCII.quote)
            output.append(ASCII.quote)
            start = quote + 1
        }
        output.append(ASCII.quote)
    }
}
