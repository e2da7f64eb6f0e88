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
        writer.beginObject(oneLine: true)
        for parameter in property.parameters where parameter.name != "VALUE" {
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
        writer.string(type.rawValue)
        for value in values { write(value, into: &writer) }
        writer.endArray()
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
