public import AlmanacCore

/// Writes a calendar as iCalendar text item by item, handing the bytes on about a megabyte at a
/// time: the calendar's properties and definitions first, then each item as it comes, then the
/// definitions of zones the items used and whatever the calendar carries.
final class ICalendarItemWriter: DocumentItemWriter {
    private let writer = ICalendarWriter()
    private var state = ICalendarWriter.State()
    private var output = ICalOutput()
    private let sink: ByteOutput
    static let pieceSize = 1 << 20

    init(_ frame: Agenda, output sink: @escaping ByteOutput) {
        self.sink = sink
        output.bytes.reserveCapacity(Self.pieceSize + 64 * 1024)
        writer.begin(frame, state: &state, into: &output)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "ics") }
        writer.write(item, state: &state, to: &output)
        if output.bytes.count >= Self.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error("convert.item-mismatch", "ics") }
        let diagnostics = writer.end(agenda, state: &state, into: &output)
        try flush()
        return diagnostics
    }

    private func flush() throws(Diagnostic) {
        try sink(output.bytes)
        output.bytes.removeAll(keepingCapacity: true)
    }
}
