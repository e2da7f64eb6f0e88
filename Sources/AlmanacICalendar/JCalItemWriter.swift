public import AlmanacCore

/// Writes jCal as items come: `["vcalendar", [properties], [components]]` pretty-printed exactly
/// as the whole document would be, one component at a time.
final class JCalItemWriter: DocumentItemWriter {
    private var stream = ComponentStream()
    private var text = ""
    private var opened = false
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) {
        self.sink = sink
        text.reserveCapacity(ICalendarItemWriter.pieceSize + 64 * 1024)
        let (properties, components) = stream.begin(frame)
        text += "[\n  \"vcalendar\",\n  "
        JSONValue.array(properties.map(JCalCodec.json)).write(into: &text, pretty: true, indent: 2)
        text += ",\n  "
        components.forEach(append)
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        stream.item(item).forEach(append)
        if text.utf8.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error("convert.item-mismatch", "jcal") }
        let (components, diagnostics) = stream.end(agenda)
        components.forEach(append)
        text += opened ? "\n  ]\n]\n" : "[]\n]\n"
        try flush()
        return diagnostics
    }

    private func append(_ component: ICalComponent) {
        text += opened ? ",\n    " : "[\n    "
        opened = true
        JCalCodec.json(component).write(into: &text, pretty: true, indent: 4)
    }

    private func flush() throws(Diagnostic) {
        try sink(Array(text.utf8))
        text.removeAll(keepingCapacity: true)
    }
}
