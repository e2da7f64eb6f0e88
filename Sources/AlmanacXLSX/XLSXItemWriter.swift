import AlmanacBytes
import AlmanacCore
import AlmanacZip

/// Writes a workbook as rows come: the package parts first, then the first sheet's rows through
/// the zip's compressor about a megabyte at a time, then the other sheets, the styles (which
/// know every currency by then) and the texts the sheets shared. The first thousand rows are
/// held to size the columns.
final class XLSXItemWriter: DocumentItemWriter {
    private let zip: ZipWriter
    private let styles: StyleBook
    private var encoder: SheetEncoder
    private var measured = 0
    private var started = false
    /// What writing out failed with (the zip reports it as its own error).
    private let failure = Failure()
    private var findings: [Diagnostic] = []
    private let columns: [String]
    private let rowLimit: Int

    /// Rows looked at for the column widths before the sheet's start is written.
    static let measuredRows = 1000
    static let pieceSize = 1 << 20

    final class Failure {
        var diagnostic: Diagnostic?
    }

    init(_ frame: Table, styles: StyleBook, language: Language, rowLimit: Int = SheetEncoder.maxRows,
         output: @escaping ByteOutput) throws(Diagnostic) {
        self.styles = styles
        self.rowLimit = rowLimit
        columns = frame.columns
        for sheet in [frame] + (frame.otherSheets ?? []) where sheet.columns.count > SheetEncoder.maxColumns {
            throw Diagnostic.error(.xlsxTooManyColumns(count: String(sheet.columns.count), limit: String(SheetEncoder.maxColumns)))
        }
        let failure = self.failure
        do throws(ZipError) {
            zip = try ZipWriter { (bytes) throws(ZipError) in
                do throws(Diagnostic) { try output(bytes) } catch {
                    failure.diagnostic = error
                    throw .output(error.message.rendered())
                }
            }
        } catch {
            throw Self.diagnostic(error, failure: failure)
        }
        encoder = SheetEncoder(types: frame.cellTypes ?? [], columns: frame.columns.count, styles: styles, rowLimit: rowLimit)
        let sheets = 1 + (frame.otherSheets?.count ?? 0)
        // Sheets without a name are named as the reader's Excel names a new one (工作表1, Sheet1).
        func defaultName(_ number: Int) -> String {
            Message.xlsxSheet(number: String(number)).rendered(in: language)
        }
        let names = WorkbookParts.sheetNames([frame.name ?? defaultName(1)]
            + (frame.otherSheets ?? []).enumerated().map { $0.element.name ?? defaultName($0.offset + 2) })
        try zipping { () throws(ZipError) in
            try zip.entry("[Content_Types].xml", Array(WorkbookParts.contentTypes(sheets: sheets).utf8))
            try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
            try zip.entry("docProps/app.xml", Array(WorkbookParts.application.utf8))
            try zip.entry("xl/workbook.xml", Array(WorkbookParts.workbook(names: names).utf8))
            try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: sheets).utf8))
            try zip.begin(WorkbookParts.sheetPath(1))
        }
        encoder.header(frame.columns)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .rows(let rows) = item else { throw Diagnostic.error(.convertItemMismatch(format: "xlsx")) }
        encoder.rows(rows)
        // A spreadsheet would drop the rows past its last: the conversion fails (nothing is written).
        if encoder.overflowed { throw Diagnostic.error(.xlsxTooManyRows(limit: String(rowLimit - 1))) }
        if !started {
            measured += rows.count
            if measured >= Self.measuredRows { try startSheet() }
        } else if encoder.byteCount >= Self.pieceSize {
            let bytes = encoder.take()
            try zipping { () throws(ZipError) in try zip.write(bytes) }
        }
    }

    /// The sheet's start, with the widths of what was measured, then the rows held.
    private func startSheet() throws(Diagnostic) {
        started = true
        encoder.measuring = false
        let start = Array(WorkbookParts.sheetStart(widths: Self.widths(encoder.widths)).utf8)
        let rows = encoder.take()
        try zipping { () throws(ZipError) in
            try zip.write(start)
            try zip.write(rows)
        }
    }

    /// Column widths in Excel's units (characters of the default font), from the widest text:
    /// at least 8, at most 60, and room for a date or an amount.
    static func widths(_ measured: [Int]) -> [Double] {
        measured.map { Double(min(60, max(8, $0 + 2))) }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        if !started { try startSheet() }
        note(encoder, columns: columns)
        let rest = encoder.take()
        try zipping { () throws(ZipError) in
            try zip.write(rest)
            try zip.write(Array(WorkbookParts.sheetEnd.utf8))
            try zip.end()
        }
        var strings = encoder.takeStrings()
        if case .table(let table) = frame {
            for (offset, sheet) in (table.otherSheets ?? []).enumerated() {
                var other = SheetEncoder(types: sheet.cellTypes ?? [], columns: sheet.columns.count, styles: styles,
                                         strings: strings, rowLimit: rowLimit)
                other.header(sheet.columns)
                other.rows(TableRows(sheet.rows))
                if other.overflowed { throw Diagnostic.error(.xlsxTooManyRows(limit: String(rowLimit - 1))) }
                note(other, columns: sheet.columns)
                strings = other.takeStrings()
                let bytes = Array(WorkbookParts.sheetStart(widths: Self.widths(other.widths)).utf8) + other.take()
                    + Array(WorkbookParts.sheetEnd.utf8)
                try zipping { () throws(ZipError) in try zip.entry(WorkbookParts.sheetPath(offset + 2), bytes) }
            }
        }
        let stylesXML = styles.xml()
        let stringsXML = strings.xml()
        try zipping { () throws(ZipError) in
            try zip.entry("xl/styles.xml", Array(stylesXML.utf8))
            try zip.entry(WorkbookParts.sharedStringsPath, stringsXML)
            try zip.finish()
        }
        return findings
    }

    /// What a sheet's cells could not hold as they came: text in a typed column, text cut at a cell's limit.
    private func note(_ sheet: borrowing SheetEncoder, columns: [String]) {
        func name(_ column: Int) -> String { column < columns.count ? columns[column] : String(column + 1) }
        if sheet.untypedCount > 0, let example = sheet.untypedExample {
            findings.append(.warning(.xlsxUntypedCells(count: String(sheet.untypedCount), example: example.text, column: name(example.column))))
        }
        if sheet.cutCount > 0, let example = sheet.cutExample {
            let cell = String(decoding: SheetEncoder.letters(example.column), as: UTF8.self) + String(example.row)
            findings.append(.warning(.xlsxLongText(count: String(sheet.cutCount), limit: String(SheetEncoder.maxTextLength), cell: cell, column: name(example.column))))
        }
    }

    private func zipping(_ body: () throws(ZipError) -> Void) throws(Diagnostic) {
        do { try body() } catch { throw Self.diagnostic(error, failure: failure) }
    }

    private static func diagnostic(_ error: ZipError, failure: Failure) -> Diagnostic {
        if let diagnostic = failure.diagnostic { return diagnostic }
        switch error {
        case .compression(let status): return .error(.xlsxCompression(library: DeflateLibrary.name, status: String(status)))
        case .output(let message): return .error(.outputFailed(reason: message))
        // Reading errors: never raised while writing.
        case .malformed, .limit, .encrypted, .unsupportedMethod, .checksum: return .error(.outputFailed(reason: String(describing: error)))
        }
    }
}
