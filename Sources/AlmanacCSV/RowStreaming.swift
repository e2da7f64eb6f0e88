public import AlmanacCore
public import AlmanacICalendar

extension CSVCodec {
    /// Reads delimited rows as days and events and writes them back as `target` for the reader's
    /// region (headers, dates, repeats in their language), one row at a time: memory stays
    /// constant however long the file is. Output goes to `write` in pieces of about a megabyte.
    ///
    /// The optional columns follow the source's columns (a time column is written when the source
    /// has one), since no row after the first has been seen when the header is written.
    public func streamAgenda(
        _ input: CodecInput, to target: CSVCodec, readContext: CodecContext, writeContext: CodecContext,
        pieceSize: Int = 1 << 20, write: ([UInt8]) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> (records: Int, diagnostics: [Diagnostic]) {
        let options = try self.options(readContext)
        let delimiter = try target.options(writeContext).delimiter ?? 0x2C
        let lineEnding = writeContext.options["line-ending"] == "lf" ? "\n" : "\r\n"
        var output = CSVWriter(delimiter: delimiter, lineEnding: lineEnding, byteOrderMark: writeContext.options["bom"] != "no")
        let guardHeader = writeContext.options["formula-guard"] != "no"
        output.reserve(pieceSize + 64 * 1024)

        var rows: AgendaRowReader?
        var writer: AgendaRowWriter?
        var columns: [String] = []
        var ragged: [Diagnostic] = []
        var index = 0
        var records = 0
        var readContext = readContext
        if readContext.options["file"] == nil { readContext.options["file"] = input.fileName }
        let (_, diagnostics) = try CSVInput.read(input, options: options) { (record) throws(Diagnostic) in
            if record.count == 0 { return }  // blank lines
            let fields = record.strings
            if rows == nil {
                columns = options.hasHeader ? fields : (1...fields.count).map { "column\($0)" }
                rows = try AgendaRowReader(columns: columns, context: readContext)
                writer = try AgendaRowWriter(layout: rows!.layout, context: writeContext)
                output.write(guardHeader ? writer!.columns.map(FormulaGuard.text) : writer!.columns)
                if options.hasHeader { return }
            }
            if fields.count != columns.count, ragged.count < 100 {
                ragged.append(.warning("csv.ragged-row", String(fields.count), String(columns.count),
                                       at: SourceLocation(file: input.fileName, line: record.line)))
            }
            if let cells = rows!.item(fields, index: index).map(writer!.row) {
                output.write(cells)
                records += 1
            }
            index += 1
            if output.bytes.count >= pieceSize { try output.flush(write) }
        }
        if rows == nil {
            // An empty file still gets a header, as an empty table would.
            throw Diagnostic.error("csv.no-title-column", "", at: SourceLocation(file: input.fileName))
        }
        try output.flush(write)
        return (records, diagnostics + ragged + rows!.diagnostics)
    }
}

extension CSVCodec {
    /// Writes a calendar as a table for the reader's region without holding its items: one pass
    /// finds which columns the items fill, a second writes the rows. Memory stays constant for
    /// any file size, and the result is the same as converting the whole calendar at once.
    public func streamCalendar(
        _ input: CodecInput, reader: ICalendarReader, writeContext: CodecContext, pieceSize: Int = 1 << 20,
        write: ([UInt8]) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> (records: Int, diagnostics: [Diagnostic]) {
        var layout = AgendaRowWriter.Layout()
        let first = try reader.stream(input) { (item) throws(Diagnostic) in layout.add(item) }
        let writer = try AgendaRowWriter(layout: layout, context: writeContext, agenda: first.agenda)
        let delimiter = try options(writeContext).delimiter ?? 0x2C
        let lineEnding = writeContext.options["line-ending"] == "lf" ? "\n" : "\r\n"
        var output = CSVWriter(delimiter: delimiter, lineEnding: lineEnding, byteOrderMark: writeContext.options["bom"] != "no")
        output.reserve(pieceSize + 64 * 1024)
        output.write(writeContext.options["formula-guard"] != "no" ? writer.columns.map(FormulaGuard.text) : writer.columns)
        var records = 0
        _ = try reader.stream(input) { (item) throws(Diagnostic) in
            guard item.recurrenceID == nil else { return }
            output.write(writer.row(item))
            records += 1
            if output.bytes.count >= pieceSize { try output.flush(write) }
        }
        try output.flush(write)
        return (records, first.diagnostics)
    }
}
