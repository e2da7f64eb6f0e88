public import AlmanacCore
import AlmanacXML

/// Writes xCal as items come: the calendar's properties, then each component as an indented
/// fragment through libxml2's writer, the same bytes as the whole document.
final class XCalItemWriter: DocumentItemWriter {
    private var stream = ComponentStream()
    private var bytes: [UInt8] = []
    private var opened = false
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) throws(Diagnostic) {
        self.sink = sink
        bytes.reserveCapacity(ICalendarItemWriter.pieceSize + 64 * 1024)
        let (properties, components) = stream.begin(frame)
        bytes += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<icalendar xmlns=\"\(XCalCodec.namespace)\">\n <vcalendar>\n  ".utf8)
        let element = XMLElement("properties", children: properties.map { .element(XCalCodec.element($0)) }, writesEmptyAsPair: false)
        bytes += try Self.fragment(element.indented(by: " ", level: 2))
        for component in components { try append(component) }
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error("convert.item-mismatch", "xcal") }
        for component in stream.item(item) { try append(component) }
        if bytes.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error("convert.item-mismatch", "xcal") }
        let (components, diagnostics) = stream.end(agenda)
        for component in components { try append(component) }
        bytes += Array((opened ? "\n  </components>" : "\n  <components/>").utf8)
        bytes += Array("\n </vcalendar>\n</icalendar>\n".utf8)
        try flush()
        return diagnostics
    }

    private func append(_ component: ICalComponent) throws(Diagnostic) {
        if !opened { bytes += Array("\n  <components>".utf8) }
        opened = true
        bytes += Array("\n   ".utf8)
        bytes += try Self.fragment(XCalCodec.element(component).indented(by: " ", level: 3))
    }

    private static func fragment(_ element: XMLElement) throws(Diagnostic) -> [UInt8] {
        do { return try element.serializedFragment() } catch { throw Diagnostic.error("xml.unwritable", error.message) }
    }

    private func flush() throws(Diagnostic) {
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
