import AlmanacCore

/// Writes rows as delimited text as they come, about a megabyte at a time.
final class CSVItemWriter: ConcurrentItemWriter {
    private var writer: CSVWriter
    private let dialect: CSVWriter.Dialect
    private let guardsFormulas: Bool
    private let sink: ByteOutput
    static let pieceSize = 1 << 20

    init(_ frame: Table, dialect: CSVWriter.Dialect, guardsFormulas: Bool, output: @escaping ByteOutput) throws(Diagnostic) {
        writer = CSVWriter(dialect)
        self.dialect = dialect
        writer.reserve(Self.pieceSize + 64 * 1024)
        self.guardsFormulas = guardsFormulas
        self.sink = output
        // A header is text, but a number there (a workbook's `-1.2` or `2025` column) is a number
        // to a spreadsheet, not a formula: guarded as a cell of unknown type.
        writer.write(guardsFormulas ? frame.columns.map(FormulaGuard.cell) : frame.columns)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .rows(let rows) = item else { throw Diagnostic.error(.convertItemMismatch(format: "csv")) }
        writer.write(rows, guardsFormulas: guardsFormulas)
        if writer.byteCount >= Self.pieceSize { try writer.flush(sink) }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        try writer.flush(sink)
        return []
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder(dialect: dialect, guardsFormulas: guardsFormulas) }

    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        writer.append(written: batch.bytes)
        if writer.byteCount >= Self.pieceSize { try writer.flush(sink) }
    }

    /// Rows written on another thread in the same dialect, with the same guard.
    final class Encoder: BatchEncoder {
        private var writer: CSVWriter
        private let guardsFormulas: Bool

        init(dialect: CSVWriter.Dialect, guardsFormulas: Bool) {
            // The file's byte order mark is the writer's, before the header.
            var rows = dialect
            rows.byteOrderMark = false
            writer = CSVWriter(rows)
            self.guardsFormulas = guardsFormulas
        }

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            for item in items {
                guard case .rows(let rows) = item else { throw Diagnostic.error(.convertItemMismatch(format: "csv")) }
                writer.write(rows, guardsFormulas: guardsFormulas)
            }
            return EncodedBatch(bytes: writer.take())
        }
    }
}
