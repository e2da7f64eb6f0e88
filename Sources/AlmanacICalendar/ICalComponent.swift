import AlmanacCore

/// A component (VCALENDAR, VEVENT, VALARM, VTIMEZONE, …) with its properties and sub-components.
public struct ICalComponent: Hashable, Sendable {
    public var name: String
    public var properties: [ICalProperty]
    public var components: [ICalComponent]
    public var line: Int

    public init(name: String, properties: [ICalProperty] = [], components: [ICalComponent] = [], line: Int = 0) {
        self.name = name
        self.properties = properties
        self.components = components
        self.line = line
    }

    public func property(_ name: String) -> ICalProperty? { properties.first { $0.name == name } }

    public func properties(_ name: String) -> [ICalProperty] { properties.filter { $0.name == name } }

    /// The component as iCalendar text: unfolded content lines joined by newlines.
    public var text: String {
        var lines: [String] = []
        appendText(to: &lines)
        return lines.joined(separator: "\n")
    }

    private func appendText(to lines: inout [String]) {
        lines.append("BEGIN:\(name)")
        for property in properties { lines.append(ContentLineWriter.line(property.name, property.parameters, property.value)) }
        for component in components { component.appendText(to: &lines) }
        lines.append("END:\(name)")
    }
}
