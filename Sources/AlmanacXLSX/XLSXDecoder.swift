import AlmanacBytes
import AlmanacCore

/// A workbook's sheet as a table, streamed: the header found (a title row above it skipped and
/// named, merged header cells filled), then the rows in batches as they inflate.
struct XLSXDecoder {
    let workbook: XLSXWorkbook
    let sheetName: String
    let part: String
    let shared: SharedTexts
    let styles: CellStyles
    /// The sheets not read, when none was asked for (named in a note: they are not lost silently).
    let otherSheets: [String]

    init(_ input: CodecInput, sheet asked: String?) throws(Diagnostic) {
        workbook = try XLSXWorkbook(try input.randomAccess(), fileName: input.fileName)
        let (sheets, date1904) = try workbook.sheets()
        // The first sheet with cells unless one is asked for: a chart sheet has none to read.
        let worksheets = sheets.filter(\.hasCells)
        let location = SourceLocation(file: input.fileName)
        guard let first = worksheets.first else { throw Diagnostic.error(.xlsxMissingPart(part: "xl/worksheets"), at: location) }
        var chosen = first
        if let asked {
            // By name (exact, then ignoring case), or by position (1 is the first).
            if let match = sheets.first(where: { $0.name == asked }) ?? sheets.first(where: { $0.name.lowercased() == asked.lowercased() }) {
                chosen = match
            } else if let number = Int(asked), (1...sheets.count).contains(number) {
                chosen = sheets[number - 1]
            } else {
                throw Diagnostic.error(.xlsxNoSheet(name: asked, sheets: sheets.map { "“\($0.name)”" }.joined(separator: ", ")), at: location)
            }
            guard chosen.hasCells else {
                throw Diagnostic.error(.xlsxChartSheet(name: chosen.name, sheets: worksheets.map { "“\($0.name)”" }.joined(separator: ", ")), at: location)
            }
        }
        (sheetName, part) = (chosen.name, chosen.part)
        otherSheets = asked == nil ? worksheets.dropFirst().map(\.name) : []
        styles = try workbook.styles(date1904: date1904)
        shared = try workbook.sharedStrings()
    }

    /// The header's row and what the rows above it were, decided from the first rows.
    struct Header {
        var columns: [String]
        var row: Int
        var skipped: [(row: Int, text: String)]
        /// Its place among the rows read (rows after it in the file are the table's, whatever their numbers).
        var position = 0
    }

    /// Decides the header from the first non-empty rows; nil while more rows are needed.
    /// `merges` nil: not known (they come after the rows); returns `needsMerges` when they matter.
    static func header(_ rows: [(fields: [String], row: Int)], complete: Bool,
                       merges: [(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int)]?) -> (Header?, needsMerges: Bool) {
        guard rows.count >= 2 || complete, !rows.isEmpty else { return (nil, false) }
        var index = 0
        var skipped: [(Int, String)] = []
        func filled(_ fields: [String]) -> Int { fields.filter { !$0.isEmpty }.count }
        // A title above the header: one value in a row, a wider row below it.
        while index + 1 < rows.count, filled(rows[index].fields) == 1, filled(rows[index + 1].fields) >= 2 {
            let titleMerged = merges?.contains { $0.firstRow == rows[index].row && $0.lastColumn > $0.firstColumn } ?? false
            if merges != nil && !titleMerged { break }
            if merges == nil { return (nil, true) }
            skipped.append((rows[index].row, rows[index].fields.first { !$0.isEmpty } ?? ""))
            index += 1
        }
        var columns = rows[index].fields
        let lastFilled = columns.lastIndex { !$0.isEmpty } ?? 0
        if columns[..<lastFilled].contains(where: \.isEmpty) || columns.count < (merges?.filter { $0.firstRow == rows[index].row }.map(\.lastColumn).max() ?? 0) {
            guard let merges else { return (nil, true) }
            // A header cell merged across columns names each of them.
            for merge in merges where merge.firstRow <= rows[index].row && rows[index].row <= merge.lastRow && merge.lastColumn > merge.firstColumn {
                guard merge.firstColumn - 1 < columns.count else { continue }
                let name = columns[merge.firstColumn - 1]
                if columns.count < merge.lastColumn { columns += Array(repeating: "", count: merge.lastColumn - columns.count) }
                for column in merge.firstColumn..<merge.lastColumn where columns[column].isEmpty { columns[column] = name }
            }
        }
        return (Header(columns: columns, row: rows[index].row, skipped: skipped, position: index), false)
    }

    func decode(into sink: inout some DocumentSink, fileName: String?) throws(Diagnostic) -> (Table, [Diagnostic]) {
        var merges: [(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int)]?
        while true {
            let reader = SheetReader(shared: shared, styles: styles)
            var early: [(fields: [String], row: Int)] = []
            var header: Header?
            var restart = false
            var batch = TableRows()
            var table = Table(name: sheetName)
            let wantsContent = sink.wantsContent
            reader.wantsContent = wantsContent
            func add(_ rows: [(fields: [String], row: Int)]) {
                for (fields, _) in rows {
                    if wantsContent { for field in fields { batch.appendField(field) } }
                    batch.endRow()
                }
            }
            try workbook.stream(part, into: reader) { () throws(Diagnostic) in
                if let bad = reader.badReference { throw badReference(bad, fileName: fileName) }
                guard !restart else { _ = reader.takePending(); return }
                if header == nil {
                    early += reader.takePending()
                    let (found, needsMerges) = Self.header(early, complete: false, merges: merges)
                    if needsMerges { restart = true; reader.wantsRows = false; return }
                    guard let found else { return }
                    header = found
                    table.columns = found.columns
                    try sink.begin(.table(table))
                    // The rows read with the header, then the rest straight from the reader.
                    add(Array(early.dropFirst(found.position + 1)))
                    early = []
                    if !batch.isEmpty { try sink.item(.rows(batch)) }
                    batch = TableRows()
                    reader.beginDirect()
                }
                for rows in reader.takeReady() { try sink.item(.rows(rows)) }
            }
            if let bad = reader.badReference { throw badReference(bad, fileName: fileName) }
            if restart {
                // The merged cells come after the rows: read once for them, then again.
                merges = reader.merges
                continue
            }
            var diagnostics: [Diagnostic] = []
            if header == nil {
                // Fewer than two rows: decided now, with the merged cells read by then.
                let found = Self.header(early, complete: true, merges: merges ?? reader.merges).0 ?? Header(columns: [], row: 0, skipped: [])
                header = found
                table.columns = found.columns
                try sink.begin(.table(table))
                add(Array(early.dropFirst(found.position + 1)))
            }
            // Where the table starts, when rows above it are empty: a row of the table is then
            // not the sheet's row of the same number.
            if let first = header?.skipped.first?.row ?? header?.row, first > 1, header?.columns.isEmpty == false {
                diagnostics.append(.note(.xlsxStartsAt(row: String(first)), at: SourceLocation(file: fileName, line: first)))
            }
            for title in header?.skipped ?? [] {
                diagnostics.append(.note(.xlsxTitleRow(row: String(title.row), text: title.text), at: SourceLocation(file: fileName, line: title.row)))
            }
            // Empty rows inside the table are no rows of it; what follows one may be another block
            // (totals, a second table), so they are named.
            let empty = reader.emptyRuns.filter { $0.lowerBound > (header?.row ?? 0) }
            if let first = empty.first {
                let named = empty.prefix(5).map { $0.count == 1 ? String($0.lowerBound) : "\($0.lowerBound)–\($0.upperBound)" }
                let more = empty.count > 5 ? " (+\(empty.count - 5))" : ""
                diagnostics.append(.note(.xlsxEmptyRows(rows: named.joined(separator: ", ") + more), at: SourceLocation(file: fileName, line: first.lowerBound)))
            }
            if !batch.isEmpty { try sink.item(.rows(batch)) }
            for rows in reader.takeReady() { try sink.item(.rows(rows)) }
            let rest = reader.takeRest()
            if !rest.isEmpty { try sink.item(.rows(rest)) }
            if let order = reader.rowsOutOfOrder {
                diagnostics.append(.warning(.xlsxRowsOutOfOrder(sheet: sheetName, row: String(order.row), after: String(order.after)),
                                            at: SourceLocation(file: fileName, line: order.row)))
            }
            if let missing = reader.missingShared {
                diagnostics.append(.warning(.xlsxMissingSharedStrings(count: String(missing.count), sheet: sheetName, cell: missing.first),
                                            at: SourceLocation(file: fileName)))
            }
            if let dates = reader.untypedDates {
                diagnostics.append(.note(.xlsxUntypedDates(count: String(dates.count), sheet: sheetName, cell: dates.first, value: dates.value),
                                         at: SourceLocation(file: fileName)))
            }
            diagnostics = workbook.notes + diagnostics
            if !otherSheets.isEmpty {
                diagnostics.append(.note(.xlsxOtherSheets(sheets: otherSheets.map { "“\($0)”" }.joined(separator: ", ")), at: SourceLocation(file: fileName)))
            }
            return (table, diagnostics)
        }
    }

    private func badReference(_ bad: (reference: String, row: Int), fileName: String?) -> Diagnostic {
        .error(.xlsxBadReference(sheet: sheetName, reference: bad.reference, row: String(bad.row)),
               at: SourceLocation(file: fileName, line: bad.row))
    }
}
