import AlmanacCore

/// A calendar written as a stream of components, for the formats that serialize iCalendar's
/// component tree (jCal, xCal): the calendar's properties and first components, then one
/// component per item, then the components that end the calendar.
struct ComponentStream {
    private let writer = ICalendarWriter()
    private var state = ICalendarWriter.State()
    private var tree = ICalTree()

    /// The calendar's properties and the components that come before its items (time zones).
    mutating func begin(_ frame: Agenda) -> (properties: [ICalProperty], components: [ICalComponent]) {
        writer.begin(frame, state: &state, into: &tree)
        return (tree.stack[0].properties, takeComponents())
    }

    mutating func item(_ item: CalendarItem) -> [ICalComponent] {
        writer.write(item, state: &state, to: &tree)
        return takeComponents()
    }

    /// The components that end the calendar, and what could not be written.
    mutating func end(_ frame: Agenda) -> (components: [ICalComponent], diagnostics: [Diagnostic]) {
        let diagnostics = writer.end(frame, state: &state, into: &tree)
        return (tree.root?.components ?? [], diagnostics)
    }

    /// A stream for a batch of items encoded on another thread: items only, inside a calendar
    /// that is never written.
    static func fragment() -> ComponentStream {
        var stream = ComponentStream()
        stream.tree.begin("VCALENDAR", line: 0)
        return stream
    }

    /// The zones and years the items used since the last call (a fragment's, for the writer).
    mutating func takeUsage() -> ICalendarWriter.State {
        defer { state = ICalendarWriter.State() }
        return state
    }

    /// Adds the zones and years a fragment's items used.
    mutating func absorb(_ usage: ICalendarWriter.State) { state.absorb(usage) }

    private mutating func takeComponents() -> [ICalComponent] {
        let components = tree.stack[0].components
        tree.stack[0].components.removeAll(keepingCapacity: true)
        return components
    }
}
