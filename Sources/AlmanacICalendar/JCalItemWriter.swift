import AlmanacCore

/// Writes jCal as items come: `["vcalendar", [properties], [components]]` pretty-printed exactly
/// as the whole document would be, one component at a time, straight from the model.
final class JCalItemWriter: ConcurrentItemWriter {
    private let calendar = ICalendarWriter()
    private var state = ICalendarWriter.State()
    private var output = JCalSink(JSONWriter(layout: .pretty, capacity: ICalendarItemWriter.pieceSize + 64 * 1024))
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) {
        self.sink = sink
        calendar.begin(frame, state: &state, into: &output)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "jcal")) }
        calendar.write(item, state: &state, to: &output)
        if output.json.byteCount >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "jcal")) }
        let diagnostics = calendar.end(agenda, state: &state, into: &output)
        output.json.raw("\n")
        try flush()
        return diagnostics
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder() }

    /// A batch's components, separated as the components array's items are; what comes before
    /// its first is this writer's to say.
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        if let usage = batch.findings as? ICalendarWriter.State { state.absorb(usage) }
        guard !batch.bytes.isEmpty else { return }
        output.beginComponents()
        output.json.rawValue(batch.bytes)
        if output.json.byteCount >= ICalendarItemWriter.pieceSize { try flush() }
    }

    /// Components written on another thread; the findings are the zones and years they used.
    final class Encoder: BatchEncoder {
        private let calendar = ICalendarWriter()

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            // At the components array's level: `["vcalendar", [...], [` is two levels deep.
            var output = JCalSink(JSONWriter(layout: .pretty, level: 2))
            var state = ICalendarWriter.State()
            for item in items {
                guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "jcal")) }
                calendar.write(item, state: &state, to: &output)
            }
            return EncodedBatch(bytes: output.json.take(), findings: state)
        }
    }

    private func flush() throws(Diagnostic) {
        try sink(output.json.take())
    }
}
