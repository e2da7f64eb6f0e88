import AlmanacCore

/// Writes jCal straight from components to UTF-8, in exactly the layout `JCalCodec.json(_:)`
/// pretty-printed has, without building `JSONValue`s (a calendar of 100,000 items would build
/// millions of them).
enum JCalBytes {
    /// `[name, [properties], [components]]`, each property on one line.
    static func write(_ component: ICalComponent, into writer: inout JSONWriter) {
        writer.beginArray()
        writer.string(component.name.lowercased())
        writer.beginArray()
        for property in component.properties { write(property, into: &writer) }
        writer.endArray()
        writer.beginArray()
        for child in component.components { write(child, into: &writer) }
        writer.endArray()
        writer.endArray()
    }

    /// `[name, {parameters}, type, value…]` on one line, as a JSON array of no arrays prints; a
    /// GEO, REQUEST-STATUS or PERIOD value (an array itself) goes through `JSONValue`, which
    /// prints it on several lines.
    static func write(_ property: ICalProperty, into writer: inout JSONWriter) {
        let type = ICalValueType.of(property.name, parameters: property.parameters, value: property.value)
        let values = StructuredValues.values(of: property.value, type: type, property: property.name)
        if type == .period || values.contains(where: { switch $0 { case .geo, .status: true; default: false } }) {
            writer.value(JCalCodec.json(property))
            return
        }
        writer.beginArray(oneLine: true)
        writer.string(property.name.lowercased())
        write(property.parameters, into: &writer)
        writer.string(type.rawValue)
        for value in values { write(value, into: &writer) }
        writer.endArray()
    }

    /// A property's parameters but VALUE (its type is the array's third item), on one line.
    static func write(_ parameters: [CarriedProperty.Parameter], into writer: inout JSONWriter) {
        writer.beginObject(oneLine: true)
        for parameter in parameters where parameter.name != "VALUE" {
            writer.key(parameter.name.lowercased())
            if parameter.values.count == 1 {
                writer.string(parameter.values[0])
            } else {
                writer.beginArray(oneLine: true)
                for value in parameter.values { writer.string(value) }
                writer.endArray()
            }
        }
        writer.endObject()
    }

    /// A value inside a property's one-line array.
    static func write(_ value: StructuredValue, into writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .recur(let parts):
            writer.beginObject(oneLine: true)
            for (name, values) in parts {
                writer.key(name)
                if values.count == 1 {
                    write(values[0], into: &writer)
                } else {
                    writer.beginArray(oneLine: true)
                    for item in values { write(item, into: &writer) }
                    writer.endArray()
                }
            }
            writer.endObject()
        default:
            writer.value(JCalCodec.json(value))
        }
    }
}

/// The writer's lines as jCal, straight into JSON with the layout `JCalBytes` gives a component
/// tree: no tree is built, TEXT is written as given (never escaped for iCalendar and read back)
/// and dates in jCal's form from the model.
struct JCalSink: ICalSink, ~Copyable {
    var json: JSONWriter
    /// For each open component, whether its properties array is the one open.
    private var inProperties: [Bool] = []
    /// Whether a component was written at the outermost level (a batch's components are items
    /// of an array opened elsewhere, so the writer is told where each new one starts).
    private var wroteOutermost = false

    init(_ json: consuming JSONWriter) { self.json = json }

    mutating func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) {
        switch name {
        case "BEGIN":
            beginComponents()
            if inProperties.isEmpty {
                if wroteOutermost { json.nextItem() }
                wroteOutermost = true
            }
            json.beginArray()
            json.string(value.lowercased())
            json.beginArray()
            inProperties.append(true)
        case "END":
            beginComponents()
            json.endArray()
            json.endArray()
            inProperties.removeLast()
        default:
            JCalBytes.write(ICalProperty(name: name, parameters: parameters, value: value), into: &json)
        }
    }

    /// Closes the open component's properties array and opens its components array, once.
    mutating func beginComponents() {
        guard inProperties.last == true else { return }
        json.endArray()
        json.beginArray()
        inProperties[inProperties.count - 1] = false
    }

    /// Components given as text (time-zone definitions, carried components), read and written.
    mutating func text(_ text: String) {
        var parser = ICalParser(fileName: nil)
        var inner = ICalTree()
        try? parser.parse(Array(("BEGIN:VCALENDAR\n" + text + "\nEND:VCALENDAR").utf8), into: &inner)
        guard let components = inner.root?.components, !components.isEmpty else { return }
        beginComponents()
        for component in components { JCalBytes.write(component, into: &json) }
    }

    mutating func text(_ name: String, _ parameters: [CarriedProperty.Parameter], _ values: [String]) {
        // A VALUE parameter names another type: the general path reads it.
        guard !parameters.contains(where: { $0.name == "VALUE" }) else {
            line(name, parameters, values.map(PropertyText.escape).joined(separator: ","))
            return
        }
        begin(name, parameters)
        json.string(ICalValueType.text.rawValue)
        for value in values { json.string(value) }
        json.endArray()
    }

    mutating func date(_ name: String, _ value: DateValue, _ parameters: [CarriedProperty.Parameter]) {
        guard !parameters.contains(where: { $0.name == "VALUE" }) else {
            let formatted = BasicDateTime.format(value)
            line(name, formatted.parameters + parameters, formatted.text)
            return
        }
        let text: String, type: ICalValueType
        var zone: String?
        switch value {
        case .date(let day): (text, type) = (day.description, .date)
        case .floating(let time): (text, type) = (time.description, .dateTime)
        case .zoned(let time, let id): (text, type, zone) = (time.description, .dateTime, id)
        case .utc(let time): (text, type) = (time.description + "Z", .dateTime)
        // jCal, like iCalendar, has no numeric offsets: the same instant, in UTC.
        case .offset: (text, type) = (value.utcTime!.description + "Z", .dateTime)
        }
        begin(name, zone.map { [CarriedProperty.Parameter(name: "TZID", values: [$0])] + parameters } ?? parameters)
        json.string(type.rawValue)
        json.string(text)
        json.endArray()
    }

    /// `[name, {parameters}` of a property on one line.
    private mutating func begin(_ name: String, _ parameters: [CarriedProperty.Parameter]) {
        json.beginArray(oneLine: true)
        json.string(name.lowercased())
        JCalBytes.write(parameters, into: &json)
    }
}
