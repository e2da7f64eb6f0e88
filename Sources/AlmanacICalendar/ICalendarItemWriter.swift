import AlmanacCore

/// Writes a calendar as iCalendar text item by item, handing the bytes on about a megabyte at a
/// time: the calendar's properties and definitions first, then each item as it comes, then the
/// definitions of zones the items used and whatever the calendar carries.
final class ICalendarItemWriter: ConcurrentItemWriter {
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
        guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "ics")) }
        writer.write(item, state: &state, to: &output)
        if output.bytes.count >= Self.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "ics")) }
        let diagnostics = writer.end(agenda, state: &state, into: &output)
        try flush()
        return diagnostics
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder() }

    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        output.bytes += batch.bytes
        if let usage = batch.findings as? ICalendarWriter.State { state.absorb(usage) }
        if output.bytes.count >= Self.pieceSize { try flush() }
    }

    /// Items written on another thread; the findings are the zones and years they used.
    final class Encoder: BatchEncoder {
        private let writer = ICalendarWriter()

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            var state = ICalendarWriter.State()
            var output = ICalOutput()
            for item in items {
                guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "ics")) }
                writer.write(item, state: &state, to: &output)
            }
            return EncodedBatch(bytes: output.bytes, findings: state)
        }
    }

    private func flush() throws(Diagnostic) {
        try sink(output.bytes)
        output.bytes.removeAll(keepingCapacity: true)
    }
}
