import AlmanacCore
import AlmanacXML

/// Writes xCal as items come, through one libxml2 writer: the calendar's properties, then each
/// component straight from the content lines (no element tree is built), indented one space a
/// level, then the end. The bytes go out about a megabyte at a time.
final class XCalItemWriter: ConcurrentItemWriter {
    private var stream = ComponentStream()
    private let xml: XMLStreamWriter
    private var pending: [UInt8] = []
    private var opened = false
    private let sink: ByteOutput

    init(_ frame: Agenda, output sink: @escaping ByteOutput) throws(Diagnostic) {
        self.sink = sink
        do throws(XMLError) {
            xml = try XMLStreamWriter()
            let (properties, components) = stream.begin(frame)
            try xml.startDocument()
            try xml.start("icalendar", namespaces: [.init(prefix: nil, uri: XCalCodec.namespace)])
            try xml.whitespace("\n ")
            try xml.start("vcalendar")
            try xml.whitespace("\n  ")
            try XCalXML.properties(properties, into: xml, level: 2)
            for component in components { try append(component) }
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "xcal")) }
        do throws(XMLError) {
            for component in stream.item(item) { try append(component) }
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
        pending += xml.take()
        if pending.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        guard case .agenda(let agenda) = frame else { throw Diagnostic.error(.convertItemMismatch(format: "xcal")) }
        let (components, diagnostics) = stream.end(agenda)
        do throws(XMLError) {
            for component in components { try append(component) }
            if opened {
                try xml.whitespace("\n  ")
                try xml.end()  // components
            } else {
                try xml.whitespace("\n  ")
                try xml.start("components")
                try xml.end()
            }
            try xml.whitespace("\n ")
            try xml.end()  // vcalendar
            try xml.whitespace("\n")
            try xml.end()  // icalendar
            try xml.endDocument()
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
        pending += xml.take()
        try flush()
        return diagnostics
    }

    private func append(_ component: ICalComponent) throws(XMLError) {
        if !opened {
            try xml.whitespace("\n  ")
            try xml.start("components")
            opened = true
        }
        try xml.whitespace("\n   ")
        try XCalXML.component(component, into: xml, level: 3)
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder {
        do throws(XMLError) {
            return Encoder(xml: try XMLStreamWriter())
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
    }

    /// A batch's components, each on its line, go inside the components element (opened here
    /// for the first).
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        if let usage = batch.findings as? ICalendarWriter.State { stream.absorb(usage) }
        guard !batch.bytes.isEmpty else { return }
        do throws(XMLError) {
            if !opened {
                try xml.whitespace("\n  ")
                try xml.start("components")
                opened = true
            }
            try xml.raw(batch.bytes)
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
        pending += xml.take()
        if pending.count >= ICalendarItemWriter.pieceSize { try flush() }
    }

    /// Components written on another thread through a libxml2 writer of its own (no document,
    /// only elements); the findings are the zones and years they used.
    final class Encoder: BatchEncoder {
        private var stream = ComponentStream.fragment()
        private let xml: XMLStreamWriter

        init(xml: XMLStreamWriter) { self.xml = xml }

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            var components: [ICalComponent] = []
            for item in items {
                guard case .calendarItem(let item) = item else { throw Diagnostic.error(.convertItemMismatch(format: "xcal")) }
                components += stream.item(item)
            }
            do throws(XMLError) {
                for component in components {
                    try xml.whitespace("\n   ")
                    try XCalXML.component(component, into: xml, level: 3)
                }
            } catch {
                throw Diagnostic.error(.xmlUnwritable(reason: error.message))
            }
            return EncodedBatch(bytes: xml.take(), findings: stream.takeUsage())
        }
    }

    private func flush() throws(Diagnostic) {
        try sink(pending)
        pending.removeAll(keepingCapacity: true)
    }
}

/// xCal elements written straight from components (RFC 6321 §3), indented as `XMLElement.indented`
/// would: a child element on its own line one space deeper, text inline.
enum XCalXML {
    private static let indents = (0..<12).map { "\n" + String(repeating: " ", count: $0) }

    static func indent(_ level: Int) -> String { level < indents.count ? indents[level] : "\n" + String(repeating: " ", count: level) }

    /// Element names are the property and component names in lower case; the same few repeat.
    private static let lowercased: [String: String] = Dictionary(uniqueKeysWithValues: (ICalValueType.knownText.union([
        "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE", "COMPLETED", "CREATED", "DTSTAMP", "LAST-MODIFIED",
        "DURATION", "TRIGGER", "RRULE", "PRIORITY", "SEQUENCE", "GEO", "TZOFFSETFROM", "TZOFFSETTO", "URL", "ATTENDEE",
        "ORGANIZER", "VEVENT", "VTODO", "VJOURNAL", "VALARM", "VTIMEZONE", "STANDARD", "DAYLIGHT", "TZID", "VALUE", "RELATED",
        "RANGE", "LANGUAGE", "ALTREP", "CN", "ROLE", "PARTSTAT", "RSVP",
    ])).map { ($0, $0.lowercased()) })

    static func name(_ upper: String) -> String { lowercased[upper] ?? upper.lowercased() }

    static func component(_ component: ICalComponent, into xml: XMLStreamWriter, level: Int) throws(XMLError) {
        try xml.start(name(component.name))
        try xml.whitespace(indent(level + 1))
        try properties(component.properties, into: xml, level: level + 1)
        try xml.whitespace(indent(level + 1))
        try xml.start("components")
        for child in component.components {
            try xml.whitespace(indent(level + 2))
            try self.component(child, into: xml, level: level + 2)
        }
        if !component.components.isEmpty { try xml.whitespace(indent(level + 1)) }
        try xml.end()
        try xml.whitespace(indent(level))
        try xml.end()
    }

    static func properties(_ properties: [ICalProperty], into xml: XMLStreamWriter, level: Int) throws(XMLError) {
        try xml.start("properties")
        for property in properties {
            try xml.whitespace(indent(level + 1))
            try self.property(property, into: xml, level: level + 1)
        }
        if !properties.isEmpty { try xml.whitespace(indent(level)) }
        try xml.end()
    }

    static func property(_ property: ICalProperty, into xml: XMLStreamWriter, level: Int) throws(XMLError) {
        let type = ICalValueType.of(property.name, parameters: property.parameters, value: property.value)
        try xml.start(name(property.name))
        let parameters = property.parameters.filter { $0.name != "VALUE" }
        if !parameters.isEmpty {
            try xml.whitespace(indent(level + 1))
            try xml.start("parameters")
            for parameter in parameters {
                let valueType = ["ALTREP", "DIR"].contains(parameter.name) ? "uri"
                    : ["DELEGATED-FROM", "DELEGATED-TO", "MEMBER", "SENT-BY"].contains(parameter.name) ? "cal-address" : "text"
                try xml.whitespace(indent(level + 2))
                try xml.start(name(parameter.name))
                for value in parameter.values {
                    try xml.whitespace(indent(level + 3))
                    try xml.element(valueType, text: value)
                }
                if !parameter.values.isEmpty { try xml.whitespace(indent(level + 2)) }
                try xml.end()
            }
            try xml.whitespace(indent(level + 1))
            try xml.end()
        }
        let values = StructuredValues.values(of: property.value, type: type, property: property.name)
        for value in values {
            switch value {
            case .geo(let latitude, let longitude):
                try xml.whitespace(indent(level + 1))
                try xml.element("latitude", text: ICalendarWriter.number(latitude))
                try xml.whitespace(indent(level + 1))
                try xml.element("longitude", text: ICalendarWriter.number(longitude))
            case .status(let parts):
                for (name, text) in zip(["code", "description", "data"], parts) {
                    try xml.whitespace(indent(level + 1))
                    try xml.element(name, text: text)
                }
            case .recur(let parts):
                try xml.whitespace(indent(level + 1))
                try xml.start("recur")
                for (name, items) in parts {
                    for item in items {
                        try xml.whitespace(indent(level + 2))
                        try xml.element(name, text: scalar(item))
                    }
                }
                if !parts.isEmpty { try xml.whitespace(indent(level + 1)) }
                try xml.end()
            default:
                try xml.whitespace(indent(level + 1))
                if type == .period, case .string(let text) = value {
                    let ends = text.split(separator: "/", maxSplits: 1).map(String.init)
                    let second = ends.count > 1 ? ends[1] : ""
                    try xml.start("period")
                    try xml.whitespace(indent(level + 2))
                    try xml.element("start", text: ends.first ?? "")
                    try xml.whitespace(indent(level + 2))
                    try xml.element(second.hasPrefix("P") || second.hasPrefix("-P") ? "duration" : "end", text: second)
                    try xml.whitespace(indent(level + 1))
                    try xml.end()
                } else {
                    try xml.element(type.rawValue, text: scalar(value))
                }
            }
        }
        if !parameters.isEmpty || !values.isEmpty { try xml.whitespace(indent(level)) }
        try xml.end()
    }

    static func scalar(_ value: StructuredValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): ICalendarWriter.number(number)
        case .boolean(let flag): flag ? "true" : "false"
        default: ""
        }
    }
}
