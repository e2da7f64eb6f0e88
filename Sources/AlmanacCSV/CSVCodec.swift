public import AlmanacCore
import AlmanacICU

/// Comma- (or otherwise) separated values, read into a Table and written from one; calendars and
/// ledgers are written through the per-region export (see `TableExport`).
public struct CSVCodec: StreamingDecoder, StreamingEncoder {
    /// `csv` sniffs the delimiter; `tsv` is tab-separated.
    public let id: String

    public init(id: String = "csv") { self.id = id }

    public static let csv = CSVCodec(id: "csv")
    public static let tsv = CSVCodec(id: "tsv")

    var fixedDelimiter: UInt8? { id == "tsv" ? ASCII.tab : nil }

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formats[id] ?? makeFormat() }
    static let formats = Dictionary(uniqueKeysWithValues: [csv, tsv].map { ($0.id, $0.makeFormat()) })

    func makeFormat() -> FormatDescription {
        let isTSV = id == "tsv"
        return FormatDescription(
            id: id,
            name: isTSV ? "Tab-separated values" : "CSV",
            summary: isTSV ? "Tab-separated text, as spreadsheets copy and paste it."
                : "Spreadsheet exports: any delimiter (, ; tab |), UTF-8 or UTF-16, Big5 or GB18030 as Excel writes them in Taipei and Shanghai.",
            aliases: isTSV ? ["tab"] : ["comma-separated-values"],
            extensions: isTSV ? [".tsv", ".tab"] : [".csv"],
            mediaTypes: isTSV ? ["text/tab-separated-values"] : ["text/csv"],
            model: .table,
            options: [
                .init(name: "header", summary: "Whether the first row names the columns.", values: ["yes", "no"], defaultValue: "yes"),
                .init(name: "delimiter", summary: "The delimiter, instead of sniffing it.", values: [",", ";", "tab", "|"]),
                .init(name: "bom", summary: "Write a UTF-8 byte order mark (Excel needs it to read UTF-8).", values: ["yes", "no"], defaultValue: "yes"),
                .init(name: "line-ending", summary: "Line ends to write.", values: ["crlf", "lf"], defaultValue: "crlf"),
                .init(name: "formula-guard", summary: "Prefix text cells that start with = + - @ with an apostrophe so spreadsheets do not run them (OWASP CSV injection).",
                      values: ["yes", "no"], defaultValue: "yes"),
            ],
            examples: [
                .init(summary: "Days as Retire Time exports them", input: isTSV
                      ? "name\tdate\tnotes\r\n媽媽生日\t2025-10-06\t記得訂蛋糕\r\n"
                      : "name,date,notes\r\n媽媽生日,2025-10-06,\"記得訂蛋糕, 地點:台北\"\r\n\"Mortgage \"\"due\"\"\",2025-04-05,\r\n"),
            ])
    }

    public func identify(_ probe: Probe) -> Identification {
        // Any text can be delimited text: never claim a file, only refuse the ones that are
        // clearly something else (the name then decides).
        let text = probe.text.prefix(4096).drop { $0.isWhitespace }
        if text.hasPrefix("{") || text.hasPrefix("[") || text.hasPrefix("<") || text.prefix(6).uppercased() == "BEGIN:" { return .no }
        return .cannotTell
    }

    func options(_ context: CodecContext) throws(Diagnostic) -> CSVInput.Options {
        var options = CSVInput.Options(delimiter: fixedDelimiter, encoding: context.encoding, readsAhead: context.readsAhead)
        if let header = context.options["header"] { options.hasHeader = header != "no" }
        if let delimiter = context.options["delimiter"] {
            switch delimiter {
            case "tab", "\\t", "\t": options.delimiter = ASCII.tab
            case ",", ";", "|": options.delimiter = delimiter.utf8.first
            default: throw Diagnostic.error(.cliValueChoices(value: delimiter, choices: ", ; tab |"))
            }
        }
        return options
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        try decodeByItems(input, context: context)
    }

    /// Rows are handed on as they are read. Without a header the columns are `column1`… as wide
    /// as the first row (a wider row later is reported and keeps its fields).
    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        let options = try self.options(context)
        var rows = RowBatcher(fileName: input.fileName, hasHeader: options.hasHeader, wantsContent: sink.wantsContent)
        let (facts, diagnostics) = try CSVInput.read(input, options: options, onFacts: { (facts) in
            rows.table.dialect = TableDialect(delimiter: String(decoding: [facts.delimiter], as: UTF8.self), lineEnding: facts.lineEnding,
                                              encoding: facts.encoding.description, byteOrderMark: facts.byteOrderMark)
        }, onRecord: { (record) throws(Diagnostic) in try rows.take(record, into: &sink) })
        try rows.finish(into: &sink)
        let table = rows.table, ragged = rows.ragged
        return Decoded(document: .table(table), diagnostics: diagnostics + ragged, encoding: facts.encoding.description)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .table = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .table(let table) = frame else {
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        return try CSVItemWriter(table, dialect: writeDialect(for: table, context: context),
                                 guardsFormulas: context.options["formula-guard"] != "no", output: output)
    }

    /// How a table is written: options win; then the dialect it was read in (a CSV rewritten
    /// stays as it was); then what Excel expects (UTF-8 with a BOM, CRLF).
    func writeDialect(for table: Table, context: CodecContext) throws(Diagnostic) -> CSVWriter.Dialect {
        let source = table.dialect
        let delimiter = try options(context).delimiter ?? source?.delimiter.utf8.first ?? ASCII.comma
        let lineEnding = context.options["line-ending"].map { $0 == "lf" ? "\n" : "\r\n" } ?? source?.lineEnding ?? "\r\n"
        let bom = context.options["bom"].map { $0 != "no" } ?? source?.byteOrderMark ?? true
        return CSVWriter.Dialect(delimiter: delimiter, lineEnding: lineEnding, byteOrderMark: bom)
    }
}

/// Records into the table's rows, in batches of about 64 KB (one value per batch to hand over,
/// or across threads): the first record is the header unless the options say there is none.
/// One value the per-record closure changes, so its state is reached without a check per field.
private struct RowBatcher {
    var table = Table()
    var ragged: [Diagnostic] = []
    private var begun = false
    private var batch = TableRows()
    let fileName: String?
    let hasHeader: Bool
    let wantsContent: Bool

    init(fileName: String?, hasHeader: Bool, wantsContent: Bool) {
        self.fileName = fileName
        self.hasHeader = hasHeader
        self.wantsContent = wantsContent
    }

    mutating func take(_ record: CSVRecord, into sink: inout some DocumentSink) throws(Diagnostic) {
        if record.count == 0 { return }  // blank lines
        if !begun {
            if hasHeader {
                table.columns = record.strings
                try begin(&sink)
                return
            }
            table.columns = (1...record.count).map { "column\($0)" }
            try begin(&sink)
        }
        if record.count != table.columns.count, ragged.count < 100 {
            ragged.append(.warning(.csvRaggedRow(fields: String(record.count), columns: String(table.columns.count)), at: SourceLocation(file: fileName, line: record.line)))
        }
        if wantsContent {
            for index in 0..<record.count { batch.appendField(record.bytes(index)) }
        }
        batch.endRow()
        if batch.byteCount >= 64 * 1024 || batch.count >= 1024 {
            try sink.item(.rows(batch))
            batch = TableRows()
        }
    }

    /// Begins the document if no record did (an empty file), and hands over the last batch.
    mutating func finish(into sink: inout some DocumentSink) throws(Diagnostic) {
        if !begun { try begin(&sink) }
        if !batch.isEmpty { try sink.item(.rows(batch)) }
    }

    private mutating func begin(_ sink: inout some DocumentSink) throws(Diagnostic) {
        begun = true
        try sink.begin(.table(table))
    }
}
