public import AlmanacCore

/// Writes rows as delimited text as they come, about a megabyte at a time.
final class CSVItemWriter: DocumentItemWriter {
    private var writer: CSVWriter
    private let guardsFormulas: Bool
    private let sink: ByteOutput
    static let pieceSize = 1 << 20

    init(_ frame: Table, dialect: CSVWriter.Dialect, guardsFormulas: Bool, output: @escaping ByteOutput) throws(Diagnostic) {
        writer = CSVWriter(dialect)
        writer.reserve(Self.pieceSize + 64 * 1024)
        self.guardsFormulas = guardsFormulas
        self.sink = output
        writer.write(guardsFormulas ? frame.columns.map(FormulaGuard.text) : frame.columns)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .rows(let rows) = item else { throw Diagnostic.error("convert.item-mismatch", "csv") }
        writer.write(rows, guardsFormulas: guardsFormulas)
        if writer.bytes.count >= Self.pieceSize { try writer.flush(sink) }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        try writer.flush(sink)
        return []
    }
}
