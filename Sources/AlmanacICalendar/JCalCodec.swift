public import AlmanacCore

/// jCal (RFC 7265): iCalendar as JSON — `["vcalendar", [properties], [components]]`, each
/// property `[name, {parameters}, type, value…]`.
public struct JCalCodec: StreamingDecoder, StreamingEncoder {
    public init() {}

    public static let description = FormatDescription(
        id: "jcal",
        name: "jCal",
        summary: "iCalendar as JSON (RFC 7265), for web calendars and JSON tools.",
        aliases: ["jcalendar", "ical-json"],
        extensions: [".jcal", ".jcal.json"],
        mediaTypes: ["application/calendar+json"],
        model: .agenda,
        options: [ICalendarCodec.calendarZoneOption],
        examples: [.init(summary: "A birthday", input: """
            ["vcalendar", [["version", {}, "text", "2.0"], ["prodid", {}, "text", "-//Example//EN"]],
              [["vevent", [["uid", {}, "text", "dad@example.org"], ["dtstamp", {}, "date-time", "2025-01-01T00:00:00Z"],
                           ["dtstart", {}, "date", "1960-09-12"], ["rrule", {}, "recur", {"freq": "YEARLY"}],
                           ["summary", {}, "text", "爸爸生日"]], []]]]
            """)])

    public var format: FormatDescription { Self.description }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.trimmedText.prefix(64).lowercased().filter { !$0.isWhitespace }
        if text.hasPrefix("[\"vcalendar\"") { return .yes }
        return text.hasPrefix("[") ? .cannotTell : .no
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let json = try JSONValue(parsing: try input.readAll(), fileName: input.fileName)
        let component = try Self.component(json, path: "", file: input.fileName)
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
        return JCalItemWriter(agenda, output: output)
    }

    /// Items are handed on once the whole document is parsed (the JSON or XML tree is built first).
    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        try decodeWholeThenItems(input, context: context, into: &sink)
    }

    // MARK: Components ↔ JSON

    static func json(_ component: ICalComponent) -> JSONValue {
        .array([
            .string(component.name.lowercased()),
            .array(component.properties.map(json)),
            .array(component.components.map(json)),
        ])
    }

    static func json(_ property: ICalProperty) -> JSONValue {
        let type = ICalValueType.of(property.name, parameters: property.parameters, value: property.value)
        let parameters = property.parameters.filter { $0.name != "VALUE" }.map { parameter -> (String, JSONValue) in
            (parameter.name.lowercased(), parameter.values.count == 1 ? .string(parameter.values[0]) : .array(parameter.values.map(JSONValue.string)))
        }
        let values: [JSONValue] = StructuredValues.values(of: property.value, type: type, property: property.name).map { value in
            json(value, type: type)
        }
        return .array([.string(property.name.lowercased()), .object(parameters), .string(type.rawValue)] + values)
    }

    /// A value of a property of the type: a PERIOD's text is its two parts.
    static func json(_ value: StructuredValue, type: ICalValueType) -> JSONValue {
        if type == .period, case .string(let text) = value, let parts = StructuredValues.periodParts(text) {
            return .array(parts.map(JSONValue.string))
        }
        return json(value)
    }

    static func json(_ value: StructuredValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        case .geo(let latitude, let longitude): .array([.number(latitude), .number(longitude)])
        case .status(let parts): .array(parts.map(JSONValue.string))
        case .recur(let parts):
            .object(parts.map { name, values in (name, values.count == 1 ? json(values[0]) : .array(values.map(json))) })
        }
    }

    static func component(_ json: JSONValue, path: String, file: String?) throws(Diagnostic) -> ICalComponent {
        guard let parts = json.array, parts.count == 3, let name = parts[0].string,
              let properties = parts[1].array, let components = parts[2].array
        else { throw Diagnostic.error(.jcalBadComponent, at: SourceLocation(file: file, keyPath: path.isEmpty ? "/" : path)) }
        var result = ICalComponent(name: name.uppercased())
        for (index, property) in properties.enumerated() {
            result.properties.append(try Self.property(property, path: "\(path)/1/\(index)", file: file))
        }
        for (index, child) in components.enumerated() {
            result.components.append(try component(child, path: "\(path)/2/\(index)", file: file))
        }
        return result
    }

    static func property(_ json: JSONValue, path: String, file: String?) throws(Diagnostic) -> ICalProperty {
        guard let parts = json.array, parts.count >= 4, let name = parts[0].string, let parameters = parts[1].object,
              let typeName = parts[2].string
        else { throw Diagnostic.error(.jcalBadProperty, at: SourceLocation(file: file, keyPath: path)) }
        let upper = name.uppercased()
        var carried = parameters.map { key, value in
            CarriedProperty.Parameter(name: key.uppercased(), values: value.array?.compactMap(\.string) ?? [value.string ?? value.serialized()])
        }
        let type = ICalValueType(rawValue: typeName) ?? .unknown
        let values = parts.dropFirst(3).map { value in
            // A PERIOD's `[start, end]`; other arrays of strings are REQUEST-STATUS's parts.
            if type == .period, let ends = value.array, ends.count == 2, let start = ends[0].string, let end = ends[1].string {
                return StructuredValue.string(start + "/" + end)
            }
            return structured(value)
        }
        // A VALUE parameter is needed when the type is not the property's default.
        let plain = StructuredValues.text(of: values, type: type, property: upper)
        if type != .unknown, ICalValueType.of(upper, parameters: carried, value: plain) != type {
            carried.insert(.init(name: "VALUE", values: [type.rawValue.uppercased()]), at: 0)
        }
        return ICalProperty(name: upper, parameters: carried, value: plain)
    }

    static func structured(_ json: JSONValue) -> StructuredValue {
        switch json {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .bool(let flag): .boolean(flag)
        case .array(let items) where !items.isEmpty && items.allSatisfy({ $0.string != nil }):
            .status(items.compactMap(\.string))
        case .array(let items) where items.count == 2:
            if case .number(let a) = items[0].asNumber, case .number(let b) = items[1].asNumber { .geo(a, b) } else { .string(json.serialized()) }
        case .object(let members):
            .recur(members.map { key, value in (key, (value.array ?? [value]).map(structured)) })
        default: .string(json.serialized())
        }
    }
}

extension JSONValue {
    /// Integers as numbers, for values (like GEO) that are always floating point.
    var asNumber: JSONValue {
        if case .integer(let number) = self { return .number(Double(number)) }
        return self
    }
}
