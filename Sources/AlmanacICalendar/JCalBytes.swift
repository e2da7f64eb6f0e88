import AlmanacCore

/// Writes jCal straight from components to UTF-8, in exactly the layout `JCalCodec.json(_:)`
/// pretty-printed has, without building `JSONValue`s (a calendar of 100,000 items would build
/// millions of them).
enum JCalBytes {
    static func write(_ component: ICalComponent, into output: inout [UInt8], indent: Int) {
        output += [0x5B, 0x0A]
        pad(&output, indent + 2)
        JSONValue.quote(component.name.lowercased(), into: &output)
        output += [0x2C, 0x0A]
        pad(&output, indent + 2)
        if component.properties.isEmpty {
            output += [0x5B, 0x5D]
        } else {
            output += [0x5B, 0x0A]
            for (index, property) in component.properties.enumerated() {
                pad(&output, indent + 4)
                write(property, into: &output, indent: indent + 4)
                output += index < component.properties.count - 1 ? [0x2C, 0x0A] : [0x0A]
            }
            pad(&output, indent + 2)
            output.append(0x5D)
        }
        output += [0x2C, 0x0A]
        pad(&output, indent + 2)
        if component.components.isEmpty {
            output += [0x5B, 0x5D]
        } else {
            output += [0x5B, 0x0A]
            for (index, child) in component.components.enumerated() {
                pad(&output, indent + 4)
                write(child, into: &output, indent: indent + 4)
                output += index < component.components.count - 1 ? [0x2C, 0x0A] : [0x0A]
            }
            pad(&output, indent + 2)
            output.append(0x5D)
        }
        output += [0x0A]
        pad(&output, indent)
        output.append(0x5D)
    }

    /// `[name, {parameters}, type, value…]` on one line, as a JSON array of no arrays prints; a
    /// GEO value (an array itself) goes through `JSONValue`, which prints it on several lines.
    static func write(_ property: ICalProperty, into output: inout [UInt8], indent: Int) {
        let type = ICalValueType.of(property.name, parameters: property.parameters, value: property.value)
        let values = StructuredValues.values(of: property.value, type: type, property: property.name)
        if values.contains(where: { switch $0 { case .geo, .status: true; default: false } }) {
            JCalCodec.json(property).write(into: &output, pretty: true, indent: indent)
            return
        }
        output.append(0x5B)
        JSONValue.quote(property.name.lowercased(), into: &output)
        output += [0x2C, 0x20]
        let parameters = property.parameters.filter { $0.name != "VALUE" }
        if parameters.isEmpty {
            output += [0x7B, 0x7D]
        } else {
            output.append(0x7B)
            for (index, parameter) in parameters.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONValue.quote(parameter.name.lowercased(), into: &output)
                output.append(0x3A)
                if parameter.values.count == 1 {
                    JSONValue.quote(parameter.values[0], into: &output)
                } else {
                    output.append(0x5B)
                    for (position, value) in parameter.values.enumerated() {
                        if position > 0 { output.append(0x2C) }
                        JSONValue.quote(value, into: &output)
                    }
                    output.append(0x5D)
                }
            }
            output.append(0x7D)
        }
        output += [0x2C, 0x20]
        JSONValue.quote(type.rawValue, into: &output)
        for value in values {
            output += [0x2C, 0x20]
            write(value, into: &output)
        }
        output.append(0x5D)
    }

    /// A value as compact JSON (inside a one-line array).
    static func write(_ value: StructuredValue, into output: inout [UInt8]) {
        switch value {
        case .string(let text): JSONValue.quote(text, into: &output)
        case .recur(let parts):
            output.append(0x7B)
            for (index, (name, values)) in parts.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONValue.quote(name, into: &output)
                output.append(0x3A)
                if values.count == 1 {
                    write(values[0], into: &output)
                } else {
                    output.append(0x5B)
                    for (position, item) in values.enumerated() {
                        if position > 0 { output.append(0x2C) }
                        write(item, into: &output)
                    }
                    output.append(0x5D)
                }
            }
            output.append(0x7D)
        default:
            JCalCodec.json(value).write(into: &output, pretty: false, indent: 0)
        }
    }

    private static func pad(_ output: inout [UInt8], _ count: Int) {
        output += repeatElement(0x20, count: count)
    }
}
