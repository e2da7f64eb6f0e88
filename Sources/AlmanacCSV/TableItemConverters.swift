public import AlmanacCore

extension TableConverter {
    /// Rows read as days and days written as rows convert one at a time: a spreadsheet of a
    /// million rows or a calendar of a hundred thousand events converts in constant memory.
    public func itemConverter(path: [ModelKind], context: CodecContext) -> (any DocumentItemConverter)? {
        switch path {
        case [.table, .agenda]: RowsToItems(context: context)
        case [.agenda, .table]: ItemsToRows(context: context)
        case [.table, .agenda, .table]: RowsToRows(context: context)
        default: nil
        }
    }
}

/// Spreadsheet rows as calendar items (columns recognised once, from the header).
final class RowsToItems: ConcurrentItemConverter {
    let context: CodecContext
    var reader: AgendaRowReader?
    var index = 0

    init(context: CodecContext) { self.context = context }

    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        guard case .table(let table) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "table")) }
        reader = try AgendaRowReader(columns: table.columns, context: context)
        return .agenda(Agenda(timeZone: context.timeZone?.identifier))
    }

    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
        guard case .rows(let rows) = item else { throw Diagnostic.error(.convertItemMismatch(format: "table")) }
        try rows.forEachRow { (fields) throws(Diagnostic) in
            defer { index += 1 }
            if let day = reader?.item(fields, index: index) { try emit(.calendarItem(day)) }
        }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) {
        (.agenda(Agenda(timeZone: context.timeZone?.identifier)), reader?.diagnostics ?? [])
    }

    func replica() throws(Diagnostic) -> any ConcurrentItemConverter {
        let copy = RowsToItems(context: context)
        copy.reader = reader
        _ = copy.reader?.takeDiagnostics()
        return copy
    }

    func seek(to index: Int) { self.index = index }

    func takeFindings() -> any Sendable { reader?.takeDiagnostics() ?? [] }

    func absorb(_ findings: any Sendable) {
        if let found = findings as? [Diagnostic] { reader?.absorb(found) }
    }
}

/// Calendar items as rows for the reader's region. The columns are those some item fills, so
/// every item is looked at once first.
final class ItemsToRows: ConcurrentItemConverter {
    let context: CodecContext
    var layout = AgendaRowWriter.Layout()
    var writer: AgendaRowWriter?

    init(context: CodecContext) { self.context = context }

    var needsFirstPass: Bool { true }

    func observe(_ item: DocumentItem) {
        if case .calendarItem(let item) = item { layout.add(item) }
    }

    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "agenda")) }
        let writer = try AgendaRowWriter(layout: layout, context: context, agenda: agenda)
        self.writer = writer
        return .table(Table(columns: writer.columns, cellTypes: writer.cellTypes))
    }

    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "agenda")) }
        guard let writer else { return }
        guard item.recurrenceID == nil else { return writer.skip(item) }
        try emit(.rows(TableRows([writer.row(item)])))
    }

    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) {
        (.table(Table(columns: writer?.columns ?? [], cellTypes: writer?.cellTypes)), writer?.report(target: context.targetFormat ?? "table") ?? [])
    }

    func replica() throws(Diagnostic) -> any ConcurrentItemConverter {
        let copy = ItemsToRows(context: context)
        copy.layout = layout
        copy.writer = try writer?.replica()
        return copy
    }

    func seek(to index: Int) {}

    func takeFindings() -> any Sendable { writer?.takeFindings() }

    func absorb(_ findings: any Sendable) {
        if let found = findings as? AgendaRowWriter.Findings { writer?.absorb(found) }
    }
}

/// Rows read as days and written back as days for the reader's region (`--via agenda`), one
/// row at a time. The optional columns follow the source's (a time column is written when the
/// source has one), since no row after the header has been seen when the header is written.
final class RowsToRows: ConcurrentItemConverter {
    let context: CodecContext
    var reader: AgendaRowReader?
    var writer: AgendaRowWriter?
    var index = 0

    init(context: CodecContext) { self.context = context }

    func frame(_ frame: Document) throws(Diagnostic) -> Document {
        guard case .table(let table) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "table")) }
        let reader = try AgendaRowReader(columns: table.columns, context: context)
        let writer = try AgendaRowWriter(layout: reader.layout, context: context, agenda: Agenda(timeZone: context.timeZone?.identifier))
        self.reader = reader
        self.writer = writer
        return .table(Table(columns: writer.columns, cellTypes: writer.cellTypes))
    }

    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
        guard case .rows(let rows) = item else { throw Diagnostic.error(.convertItemMismatch(format: "table")) }
        guard let writer else { return }
        var output = TableRows()
        var day = CalendarItem(uid: "", title: "")
        rows.forEachRow(into: &day) { fields, day in
            defer { index += 1 }
            if reader?.read(fields, index: index, into: &day) == true { writer.row(day, into: &output) }
        }
        if !output.isEmpty { try emit(.rows(output)) }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) {
        (.table(Table(columns: writer?.columns ?? [], cellTypes: writer?.cellTypes)),
         (reader?.diagnostics ?? []) + (writer?.report(target: context.targetFormat ?? "table") ?? []))
    }

    func replica() throws(Diagnostic) -> any ConcurrentItemConverter {
        let copy = RowsToRows(context: context)
        copy.reader = reader
        _ = copy.reader?.takeDiagnostics()
        copy.writer = try writer?.replica()
        return copy
    }

    func seek(to index: Int) { self.index = index }

    func takeFindings() -> any Sendable {
        Findings(diagnostics: reader?.takeDiagnostics() ?? [], written: writer?.takeFindings())
    }

    func absorb(_ findings: any Sendable) {
        guard let found = findings as? Findings else { return }
        reader?.absorb(found.diagnostics)
        if let written = found.written { writer?.absorb(written) }
    }

    /// What a replica's rows found, read and written.
    struct Findings: Sendable {
        var diagnostics: [Diagnostic]
        var written: AgendaRowWriter.Findings?
    }
}
