import AlmanacCore

/// Writes jCal as items come: `["vcalendar", [properties], [components]]` pretty-printed exactly
/// as the whole document would be, one component at a time.
final class JCalItemWriter: ConcurrentItemWriter {
    private var stream = ComponentStream()
    /// `["vcalendar", [properties], [` written, the components are written as they come.
    private var writer = JSONWriter(layout: .pretty, capacity: ICalendarItemWriter.pieceSize + 64 * 1024)
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) {
        self.sink = sink
        let (properties, components) = stream.begin(frame)
        writer.beginArray()
        writer.string("vcalendar")
        writer.value(.array(properties.map(JCalCodec.json)))
        writer.beginArray()
        for component in components { JCalBytes.write(component, into: &writer) }
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        for component in stream.item(item) { JCalBytes.write(component, into: &writer) }
        if writer.byteCount >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        let (components, diagnostics) = stream.end(agenda)
        for component in components { JCalBytes.write(component, into: &writer) }
        writer.endArray()
        writer.endArray()
        writer.raw("\n")
        try flush()
        return diagnostics
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder() }

    /// A batch's components, separated as the components array's items are; what comes before
    /// its first is this writer's to say.
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        if let usage = batch.findings as? ICalendarWriter.State { stream.absorb(usage) }
        guard !batch.bytes.isEmpty else { return }
        writer.rawValue(batch.bytes)
        if writer.byteCount >= ICalendarItemWriter.pieceSize { try flush() }
    }

    /// Components written on another thread; the findings are the zones and years they used.
    final class Encoder: BatchEncoder {
        private var stream = ComponentStream.fragment()

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            // At the components array's level: `["vcalendar", [...], [` is two levels deep.
            var writer = JSONWriter(layout: .pretty, level: 2)
            var first = true
            for item in items {
                guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
                for component in stream.item(item) {
                    if !first { writer.nextItem() }
                    first = false
                    JCalBytes.write(component, into: &writer)
                }
            }
            return EncodedBatch(bytes: writer.take(), findings: stream.takeUsage())
        }
    }

    private func flush() throws(Diagnostic) {
        try sink(writer.take())
    }
}
