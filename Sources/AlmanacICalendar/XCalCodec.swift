public import AlmanacCore
import AlmanacXML

/// xCal (RFC 6321): iCalendar as XML, read and written through libxml2 (no network, no entities).
public struct XCalCodec: StreamingDecoder, StreamingEncoder {
    public static let namespace = "urn:ietf:params:xml:ns:icalendar-2.0"

    public init() {}

    public static let description = FormatDescription(
        id: "xcal",
        name: "xCal",
        summary: "iCalendar as XML (RFC 6321), as CalDAV servers and XML pipelines exchange it.",
        aliases: ["xcalendar", "ical-xml"],
        extensions: [".xcs", ".xcal", ".xcal.xml"],
        mediaTypes: ["application/calendar+xml"],
        model: .agenda,
        options: [ICalendarCodec.calendarZoneOption],
        examples: [.init(summary: "A to-do due in Taipei", input: """
            <?xml version="1.0" encoding="UTF-8"?>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar>
              <properties><version><text>2.0</text></version><prodid><text>-//Example//EN</text></prodid></properties>
              <components><vtodo><properties>
                <uid><text>rent@example.org</text></uid><dtstamp><date-time>2025-03-01T00:00:00Z</date-time></dtstamp>
                <due><parameters><tzid><text>Asia/Taipei</text></tzid></parameters><date-time>2025-04-05T09:00:00</date-time></due>
                <summary><text>繳房租 &amp; 水電</text></summary><priority><integer>1</integer></priority>
              </properties><components/></vtodo></components>
            </vcalendar></icalendar>
            """)])

    public var format: FormatDescription { Self.description }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.text.prefix(4096)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "<" else { return .no }
        if text.contains(Self.namespace) { return .yes }
        return text.contains("<icalendar") ? .cannotTell : .no
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let bytes = try input.readAll()
        let document: XMLDocument
        do { document = try XMLDocument(parsing: bytes) } catch {
            throw Diagnostic.error(.xmlInvalid(reason: error.message), at: SourceLocation(file: input.fileName, line: error.line > 0 ? error.line : nil,
                                                                                     column: error.column > 0 ? error.column : nil))
        }
        guard document.root.localName == "icalendar", let calendar = document.root.element(named: "vcalendar") else {
            throw Diagnostic.error(.xcalNotXcal, at: SourceLocation(file: input.fileName, line: document.root.line))
        }
        let component = Self.component(calendar)
        let options = ICalendarReader.Options(applyCalendarTimeZone: context.options["x-wr-timezone"] != "ignore")
        let result = try ICalendarReader(options: options).read(component: component, fileName: input.fileName)
        return Decoded(document: .agenda(result.agenda), diagnostics: result.diagnostics, encoding: "UTF-8")
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .agenda = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.agenda.rawValue))
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .agenda(let agenda) = frame else {
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: format.id, expected: ModelKind.agenda.rawValue))
        }
        return try XCalItemWriter(agenda, output: output)
    }

    /// Items are handed on once the whole document is parsed (the JSON or XML tree is built first).
    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        try decodeWholeThenItems(input, context: context, into: &sink)
    }

    // MARK: XML → components

    static func component(_ element: XMLElement) -> ICalComponent {
        var component = ICalComponent(name: element.localName.uppercased(), line: element.line)
        for property in element.element(named: "properties")?.elements ?? [] {
            component.properties.append(self.property(property))
        }
        for child in element.element(named: "components")?.elements ?? [] {
            component.components.append(self.component(child))
        }
        return component
    }

    static func property(_ element: XMLElement) -> ICalProperty {
        let name = element.localName.uppercased()
        var parameters: [CarriedProperty.Parameter] = []
        for parameter in element.element(named: "parameters")?.elements ?? [] {
            parameters.append(.init(name: parameter.localName.uppercased(), values: parameter.elements.map(\.text)))
        }
        var type = ICalValueType.unknown
        var values: [StructuredValue] = []
        var latitude: Double?
        for child in element.elements where child.localName != "parameters" {
            switch child.localName {
            case "code", "description", "data":
                // REQUEST-STATUS: its parts, in order, as one structured value.
                type = .text
                if case .status(let parts) = values.last { values[values.count - 1] = .status(parts + [child.text]) } else { values.append(.status([child.text])) }
            case "latitude": latitude = Double(child.text); type = .float
            case "longitude": values.append(.geo(latitude ?? 0, Double(child.text) ?? 0)); type = .float
            case "recur":
                type = .recur
                var parts: [(String, [StructuredValue])] = []
                for part in child.elements {
                    let value: StructuredValue = Int(part.text).map(StructuredValue.integer) ?? .string(part.text)
                    if let last = parts.last, last.0 == part.localName { parts[parts.count - 1].1.append(value) } else { parts.append((part.localName, [value])) }
                }
                values.append(.recur(parts))
            case "period":
                type = .period
                values.append(.string(child.elements.map(\.text).joined(separator: "/")))
            default:
                type = ICalValueType(rawValue: child.localName) ?? .unknown
                values.append(type == .integer ? Int(child.text).map(StructuredValue.integer) ?? .string(child.text) : .string(child.text))
            }
        }
        let value = StructuredValues.text(of: values, type: type, property: name)
        if type != .unknown, ICalValueType.of(name, parameters: parameters, value: value) != type {
            parameters.insert(.init(name: "VALUE", values: [type.rawValue.uppercased()]), at: 0)
        }
        return ICalProperty(name: name, parameters: parameters, value: value, line: element.line)
    }
}
