public import AlmanacCore
import AlmanacICU

/// Writes the Agenda model as RFC 5545: CRLF lines folded at 75 octets without splitting a
/// character, TEXT escaped, UID, DTSTAMP and PRODID always present, a VTIMEZONE for every TZID
/// used, and the same bytes for the same model (no clock readings, a fixed property order).
public struct ICalendarWriter: Sendable {
    public static let productID = "-//Almanac//Almanac \(AlmanacVersion.current)//EN"

    public init() {}

    /// What the writer remembers between the items of a calendar written as a stream: the zone
    /// definitions written, the zones the items use, the years their dates span.
    struct State: Sendable {
        var defined = Set<String>()
        var used = Set<String>()
        var lowYear = Int.max
        var highYear = Int.min

        /// Adds the zones and years items written elsewhere used (a batch on another thread).
        mutating func absorb(_ other: State) {
            used.formUnion(other.used)
            lowYear = min(lowYear, other.lowYear)
            highYear = max(highYear, other.highYear)
        }
    }

    public func write(_ agenda: Agenda) -> (bytes: [UInt8], diagnostics: [Diagnostic]) {
        var output = ICalOutput()
        output.bytes.reserveCapacity(agenda.items.count * 400 + 1024)
        var state = State()
        begin(agenda, state: &state, into: &output)
        for item in agenda.items { write(item, state: &state, to: &output) }
        let diagnostics = end(agenda, state: &state, into: &output)
        return (output.bytes, diagnostics)
    }

    /// The calendar's start: BEGIN:VCALENDAR, its properties, and the time zones the source defined.
    static let productProperty = "PRODID"

    func begin<Output: ICalSink & ~Copyable>(_ frame: Agenda, state: inout State, into output: inout Output) {
        func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) {
            output.line(name, parameters, value)
        }
        line("BEGIN", [], "VCALENDAR")
        line("VERSION", [], "2.0")
        // The product that made the calendar, when it was read from iCalendar; Almanac, when
        // Almanac made it from another model.
        let product = frame.carried.first { $0.name == Self.productProperty }
        line(Self.productProperty, product?.parameters ?? [], product?.value ?? Self.productID)
        if let name = frame.name {
            line("NAME", [], PropertyText.escape(name))
            line("X-WR-CALNAME", [], PropertyText.escape(name))
        }
        if let zone = frame.timeZone { line("X-WR-TIMEZONE", [], zone) }
        for property in frame.carried where property.name != Self.productProperty {
            line(property.name, property.parameters, property.value)
        }
        writeDefinitions(frame, state: &state, into: &output)
    }

    /// One item, remembering the zones and years it uses.
    func write<Output: ICalSink & ~Copyable>(_ item: CalendarItem, state: inout State, to output: inout Output) {
        func add(_ value: DateValue?) {
            guard let value else { return }
            if case .zoned(_, let zone) = value { state.used.insert(zone) }
        }
        add(item.start); add(item.end); add(item.due); add(item.recurrenceID); add(item.completedAt)
        item.recurrence?.dates.forEach(add)
        item.recurrence?.periods.forEach { add($0.start); add($0.end) }
        item.recurrence?.exceptions.forEach(add)
        for value in [item.start, item.end, item.due, item.recurrenceID] {
            guard let year = value?.day.year else { continue }
            state.lowYear = min(state.lowYear, year)
            state.highYear = max(state.highYear, year)
        }
        write(item, to: &output)
    }

    /// The calendar's end: definitions the source gave after its items, ICU's definitions for
    /// the zones items used that no definition covers, carried components, END:VCALENDAR.
    func end<Output: ICalSink & ~Copyable>(_ frame: Agenda, state: inout State, into output: inout Output) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        writeDefinitions(frame, state: &state, into: &output)
        // The years the generated definitions cover: from a year before the earliest date used to
        // 2037 or a year after the latest, so repeating items stay covered.
        let years = state.lowYear <= state.highYear ? max(1900, state.lowYear - 1)...max(2037, state.highYear + 1) : 1970...2037
        for zone in state.used.sorted() where !state.defined.contains(zone) {
            guard let resolved = TimeZoneID.resolve(zone)?.zone else {
                diagnostics.append(.warning(.icsUnknownTimezone(zone: zone)))
                continue
            }
            output.text(VTimeZoneWriter.definition(for: resolved, id: zone, years: years))
        }
        for component in frame.carriedComponents { output.text(component) }
        output.line("END", [], "VCALENDAR")
        return diagnostics
    }

    /// The frame's definitions not yet written, as given.
    private func writeDefinitions<Output: ICalSink & ~Copyable>(_ frame: Agenda, state: inout State, into output: inout Output) {
        for definition in frame.timeZones where !state.defined.contains(definition.id) {
            state.defined.insert(definition.id)
            output.text(definition.definition)
        }
    }

    private func write<Output: ICalSink & ~Copyable>(_ item: CalendarItem, to output: inout Output) {
        func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) {
            output.line(name, parameters, value)
        }
        let component = switch item.kind {
        case .event: "VEVENT"
        case .todo: "VTODO"
        case .journal: "VJOURNAL"
        }
        func parameters(_ name: String, _ base: [CarriedProperty.Parameter] = []) -> [CarriedProperty.Parameter] {
            base + (item.parameters[name] ?? [])
        }
        func date(_ name: String, _ value: DateValue?, extra: [CarriedProperty.Parameter] = []) {
            guard let value else { return }
            output.date(name, value, parameters(name, extra))
        }
        // COMPLETED, CREATED and LAST-MODIFIED are UTC date-times (RFC 5545 3.8.2.1, 3.8.7): a day
        // (todo.txt and the apps keep only the day) is written as its midnight UTC.
        func utc(_ name: String, _ value: DateValue?) {
            switch value {
            case .date(let day): date(name, (try? CivilDateTime(date: day)).map(DateValue.utc) ?? value)
            case .floating(let time): date(name, .utc(time))
            default: date(name, value)
            }
        }
        func text(_ name: String, _ value: String?) {
            guard let value else { return }
            output.text(name, parameters(name), [value])
        }

        line("BEGIN", [], component)
        line("UID", parameters("UID"), item.uid)
        if let stamp = item.stamp {
            date("DTSTAMP", stamp)
        } else {
            line("DTSTAMP", [], Self.stamp(for: item))
        }
        date("DTSTART", item.start)
        date("DTEND", item.end)
        date("DUE", item.due)
        if let duration = item.duration {
            // RFC 5545: a VTODO has DUE or DURATION, never both, and DURATION only with DTSTART.
            // A to-do due on a day that takes a while (知习's 45 minutes of study) keeps its length
            // as an estimate beside DUE; Almanac reads it back as the duration.
            if item.kind == .todo, item.due != nil || item.start == nil {
                line(CarriedName.estimatedDuration, [], duration)
            } else {
                line("DURATION", parameters("DURATION"), duration)
            }
        }
        date("RECURRENCE-ID", item.recurrenceID,
             extra: item.recurrenceThisAndFuture ? [.init(name: "RANGE", values: ["THISANDFUTURE"])] : [])
        if let recurrence = item.recurrence {
            for rule in recurrence.rules { line("RRULE", [], rule.description) }
            for value in recurrence.dates { date("RDATE", value) }
            for period in recurrence.periods {
                let start = BasicDateTime.format(period.start)
                let end = period.end.map { BasicDateTime.format($0).text } ?? period.duration ?? ""
                let periodParameters = start.parameters.filter { $0.name != "VALUE" } + [.init(name: "VALUE", values: ["PERIOD"])]
                line("RDATE", parameters("RDATE", periodParameters), start.text + "/" + end)
            }
            for value in recurrence.exceptions { date("EXDATE", value) }
        }
        text("SUMMARY", item.title.isEmpty && item.parameters["SUMMARY"] == nil ? nil : item.title)
        text("DESCRIPTION", item.notes)
        text("LOCATION", item.location)
        if let geo = item.geo { line("GEO", [], "\(Self.number(geo.latitude));\(Self.number(geo.longitude))") }
        if !item.categories.isEmpty { output.text("CATEGORIES", [], item.categories) }
        if let color = item.color { line("COLOR", parameters("COLOR"), color) }
        // An exact PRIORITY kept from the source wins when it says the same level.
        let exactPriority = item.carried.first { $0.name == "PRIORITY" }.flatMap { Int($0.value) }
        if item.priority != .none || exactPriority != nil {
            if exactPriority == nil || Priority(iCalendar: exactPriority!) != item.priority {
                line("PRIORITY", [], String(item.priority.iCalendarValue))
            }
        }
        if let status = item.status {
            line("STATUS", [], status)
        } else if item.isCompleted && item.kind == .todo {
            line("STATUS", [], "COMPLETED")
        }
        utc("COMPLETED", item.completedAt)
        if let url = item.url { line("URL", parameters("URL"), url) }
        utc("CREATED", item.created)
        utc("LAST-MODIFIED", item.lastModified)
        for property in item.carried {
            if property.name == "PRIORITY", let exact = exactPriority, Priority(iCalendar: exact) != item.priority { continue }
            line(property.name, property.parameters, property.value)
        }
        for alarm in item.alarms {
            line("BEGIN", [], "VALARM")
            line("ACTION", [], alarm.action.rawValue.uppercased())
            switch alarm.trigger {
            case .relative(let seconds, let fromEnd):
                line("TRIGGER", fromEnd ? [.init(name: "RELATED", values: ["END"])] : [], CalendarDuration(totalSeconds: seconds).description)
            case .absolute(let value):
                let formatted = BasicDateTime.format(value)
                line("TRIGGER", [.init(name: "VALUE", values: ["DATE-TIME"])], formatted.text)
            }
            // DISPLAY alarms need a DESCRIPTION (RFC 5545 §3.6.6); the item's title is the natural one.
            if let message = alarm.message ?? (alarm.action == .display ? item.title : nil) {
                output.text("DESCRIPTION", [], [message])
            }
            for property in alarm.carried { line(property.name, property.parameters, property.value) }
            line("END", [], "VALARM")
        }
        for child in item.carriedComponents { output.text(child) }
        line("END", [], component)
    }


    /// DTSTAMP without reading the clock: the item's last change or creation in UTC, else the Unix epoch.
    static func stamp(for item: CalendarItem) -> String {
        for value in [item.lastModified, item.created] {
            if case .utc(let time)? = value { return BasicDateTime.basic(time) + "Z" }
        }
        return "19700101T000000Z"
    }

    static func number(_ value: Double) -> String {
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// Where the writer's content lines go: iCalendar text, a component tree, or jCal.
protocol ICalSink: ~Copyable {
    /// A content line (BEGIN and END lines included), value as iCalendar text.
    mutating func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String)
    /// Whole components as iCalendar text (unfolded lines joined by newlines).
    mutating func text(_ text: String)
    /// A TEXT property from its unescaped values (one, or CATEGORIES' list).
    mutating func text(_ name: String, _ parameters: [CarriedProperty.Parameter], _ values: [String])
    /// A DATE or DATE-TIME property: the value, and the parameters beside those its form needs
    /// (VALUE=DATE, TZID come first).
    mutating func date(_ name: String, _ value: DateValue, _ parameters: [CarriedProperty.Parameter])
}

extension ICalSink where Self: ~Copyable {
    /// As iCalendar text: escaped, a list joined by commas.
    mutating func text(_ name: String, _ parameters: [CarriedProperty.Parameter], _ values: [String]) {
        line(name, parameters, values.count == 1 ? PropertyText.escape(values[0]) : values.map(PropertyText.escape).joined(separator: ","))
    }

    /// As iCalendar text: basic format, VALUE=DATE or TZID first.
    mutating func date(_ name: String, _ value: DateValue, _ parameters: [CarriedProperty.Parameter]) {
        let formatted = BasicDateTime.format(value)
        line(name, formatted.parameters + parameters, formatted.text)
    }
}

/// Builds a component tree from the writer's lines.
struct ICalTree: ICalSink, ICalEvents {
    var stack: [ICalComponent] = []
    var root: ICalComponent?

    mutating func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) {
        switch name {
        case "BEGIN": begin(value, line: 0)
        case "END": end(value, line: 0)
        default: property(ICalProperty(name: name, parameters: parameters, value: value))
        }
    }

    mutating func text(_ text: String) {
        // Parse the text inside a calendar of its own and graft what it holds onto the open component.
        var parser = ICalParser(fileName: nil)
        var inner = ICalTree()
        try? parser.parse(Array(("BEGIN:VCALENDAR\n" + text + "\nEND:VCALENDAR").utf8), into: &inner)
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].components += inner.root?.components ?? []
        stack[stack.count - 1].properties += inner.root?.properties ?? []
    }

    mutating func begin(_ name: String, line: Int) { stack.append(ICalComponent(name: name, line: line)) }

    mutating func property(_ property: ICalProperty) {
        if !stack.isEmpty { stack[stack.count - 1].properties.append(property) }
    }

    mutating func end(_ name: String, line: Int) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty { root = finished } else { stack[stack.count - 1].components.append(finished) }
    }
}

/// The bytes of an iCalendar file being written.
struct ICalOutput: ICalSink {
    var bytes: [UInt8] = []

    mutating func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) {
        ContentLineWriter.appendFolded(ContentLineWriter.line(name, parameters, value), to: &bytes)
    }

    /// Component text (unfolded lines joined by newlines), folded and CRLF-terminated.
    mutating func text(_ text: String) {
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            ContentLineWriter.appendFolded(String(line), to: &bytes)
        }
    }
}
