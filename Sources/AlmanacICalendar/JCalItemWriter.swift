public import AlmanacCore

/// Writes jCal as items come: `["vcalendar", [properties], [components]]` pretty-printed exactly
/// as the whole document would be, one component at a time.
final class JCalItemWriter: ConcurrentItemWriter {
    private var stream = ComponentStream()
    private var bytes: [UInt8] = []
    private var opened = false
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) {
        self.sink = sink
        bytes.reserveCapacity(ICalendarItemWriter.pieceSize + 64 * 1024)
        let (properties, components) = stream.begin(frame)
        bytes += Array("[\n  \"vcalendar\",\n  ".utf8)
        JSONValue.array(properties.map(JCalCodec.json)).write(into: &bytes, pretty: true, indent: 2)
        bytes += Array(",\n  ".utf8)
        components.forEach(append)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        stream.item(item).forEach(append)
        if bytes.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        let (components, diagnostics) = stream.end(agenda)
        components.forEach(append)
        bytes += Array((opened ? "\n  ]\n]\n" : "[]\n]\n").utf8)
        try flush()
        return diagnostics
    }

    private func append(_ component: ICalComponent) {
        bytes += opened ? Array(",\n    ".utf8) : Array("[\n    ".utf8)
        opened = true
        JCalBytes.write(component, into: &bytes, indent: 4)
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder() }

    /// A batch's components are separated by commas; what comes before its first is this
    /// writer's to say (the array's opening or a comma).
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        if let usage = batch.findings as? ICalendarWriter.State { stream.absorb(usage) }
        guard !batch.bytes.isEmpty else { return }
        bytes += opened ? Array(",\n    ".utf8) : Array("[\n    ".utf8)
        opened = true
        bytes += batch.bytes
        if bytes.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    /// Components written on another thread; the findings are the zones and years they used.
    final class Encoder: BatchEncoder {
        private var stream = ComponentStream.fragment()

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            var bytes: [UInt8] = []
            for item in items {
                guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
                for component in stream.item(item) {
                    if !bytes.isEmpty { bytes += Array(",\n    ".utf8) }
                    JCalBytes.write(component, into: &bytes, indent: 4)
                }
            }
            return EncodedBatch(bytes: bytes, findings: stream.takeUsage())
        }
    }

    private func flush() throws(Diagnostic) {
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
