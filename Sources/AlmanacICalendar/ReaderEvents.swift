import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Builds the Agenda from parser events: items are mapped property by property as they are read
/// and handed on when they end; other components are collected whole.
struct ReaderEvents: ICalEvents {
    var agenda = Agenda()
    var mapper: ItemMapper
    let applyCalendarZone: Bool
    /// With `.schedule`, an item's other properties and its alarms go unread once its UID is read.
    let detail: ItemDetail
    let onFrame: (Agenda) throws(Diagnostic) -> Void
    let onItem: (consuming CalendarItem) throws(Diagnostic) -> Void
    private var framed = false
    private var calendarZone: ICUWallClock?
    private var depth = 0
    private var inItem = false
    /// The item being read (nil between items, so that a finished one is handed on, not copied:
    /// a copy retained every field only to release them at the next item's start).
    private var item: CalendarItem?
    private var seen: UInt64 = 0
    private var itemLine = 0
    /// Components being collected whole (VTIMEZONE, VALARM, unknown ones), innermost last.
    private var collecting: [ICalComponent] = []
    /// Items written more than once (revisions).
    private var revisions = RevisionLedger()

    /// What reading said: the mapper's warnings, then one for each item written more than once.
    var diagnostics: [Diagnostic] { mapper.diagnostics + revisions.diagnostics(fileName: mapper.fileName) }

    init(mapper: ItemMapper, applyCalendarZone: Bool, detail: ItemDetail = .complete,
         onFrame: @escaping (Agenda) throws(Diagnostic) -> Void,
         onItem: @escaping (consuming CalendarItem) throws(Diagnostic) -> Void) {
        self.mapper = mapper
        self.applyCalendarZone = applyCalendarZone
        self.detail = detail
        self.onFrame = onFrame
        self.onItem = onItem
    }

    mutating func begin(_ name: String, line: Int) throws(Diagnostic) {
        depth += 1
        if depth == 2, collecting.isEmpty, name == "VEVENT" || name == "VTODO" || name == "VJOURNAL" {
            inItem = true
            item = ItemMapper.start(name)
            seen = 0
            itemLine = line
        } else if depth >= 2 || name != "VCALENDAR" {
            var component = ICalComponent(name: name, line: line)
            // An alarm has three or four properties: one allocation rather than growing 1, 2, 4.
            component.properties.reserveCapacity(4)
            collecting.append(component)
        }
    }

    mutating func property(_ property: ICalProperty) throws(Diagnostic) {
        if !property.parameters.isEmpty { checkNumbers(property) }
        if !collecting.isEmpty {
            collecting[collecting.count - 1].properties.append(property)
        } else if inItem {
            mapper.apply(property, to: &item!, seen: &seen)
        } else {
            calendarProperty(property)
        }
    }

    mutating func plainProperty(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters) -> Bool {
        guard inItem, collecting.isEmpty else { return false }
        return mapper.applyPlain(kind, value, parameters, to: &item!, seen: &seen)
    }

    /// Whether the events can do without a property line (`ICalEvents.skips`): with `.schedule`
    /// detail, inside an item whose UID has been read, anything in its sub-components and every
    /// property that does not place it in time. An item is read whole until its UID comes (its
    /// generated UID, when it has none, is made from everything in it).
    mutating func skips(_ kind: PropertyKind, name: ByteView) -> Bool {
        guard inItem, readsOnlySchedule else { return false }
        if !collecting.isEmpty { return true }
        switch kind {
        case .uid, .summary, .dtstart, .dtend, .due, .duration, .rrule, .rdate, .exdate, .recurrenceID: return false
        // A to-do's estimated length is its duration (see `ItemMapper.apply`).
        case .other: return !name.matchesIgnoringCase(0, name.count, Self.estimatedDuration)
        default: return true
        }
    }

    /// `CarriedName.estimatedDuration`, to compare with a line's name bytes.
    static let estimatedDuration: StaticString = "X-ALMANAC-ESTIMATED-DURATION"

    private static let uidBit: UInt64 = 1 << UInt64(PropertyKind.uid.rawValue)

    /// Whether the rest of the item is read only for what places it in time: `.schedule` detail,
    /// and its UID read (see `skips`; a finished sub-component is then dropped).
    private var readsOnlySchedule: Bool {
        if case .schedule = detail, seen & Self.uidBit != 0 { return true }
        return false
    }

    mutating func end(_ name: String, line: Int) throws(Diagnostic) {
        defer { depth -= 1 }
        if let finished = collecting.popLast() {
            if !collecting.isEmpty {
                collecting[collecting.count - 1].components.append(finished)
            } else if inItem {
                if !readsOnlySchedule { mapper.child(finished, of: &item!) }
            } else if finished.name == "VTIMEZONE" {
                // TZID is TEXT (RFC 5545 §3.8.3.1): `Canberra\, Melbourne\, Sydney` defines the zone a
                // DTSTART's TZID="Canberra, Melbourne, Sydney" names.
                if let id = finished.property("TZID").map({ PropertyText.unescape($0.value) }), !id.isEmpty {
                    // A definition of a well-known location (X-LIC-LOCATION, as libical, Google and
                    // Almanac write them) is ICU's zone: it is regenerated on writing, not carried.
                    if let location = finished.property("X-LIC-LOCATION")?.value,
                       TimeZoneID.resolve(location) != nil, TimeZoneID.resolve(id) != nil {
                        return
                    }
                    agenda.timeZones.append(TimeZoneDefinition(id: id, definition: finished.text))
                } else {
                    mapper.diagnostics.append(.warning(.icsTimezoneWithoutId, at: mapper.location(finished.line)))
                }
            } else {
                agenda.carriedComponents.append(finished.text)
            }
        } else if inItem && depth == 2 {
            inItem = false
            mapper.finish(&item!, line: itemLine)
            if let calendarZone { item!.applyCalendarZone(calendarZone) }
            revisions.record(item!, line: itemLine)
            if !framed {
                framed = true
                try onFrame(agenda)
            }
            try onItem(item.take()!)
        }
    }

    /// An item the file never closed is kept when it is whole enough to be one: an event the
    /// cut left without its start (DTSTART) is not an event any app can show, and is left out
    /// with a warning naming it.
    mutating func endUnclosed(_ name: String, line: Int) throws(Diagnostic) {
        if inItem, depth == 2, collecting.isEmpty, let cut = item, cut.kind == .event, cut.start == nil {
            depth -= 1
            inItem = false
            item = nil
            let title = cut.title.isEmpty ? cut.uid : cut.title
            mapper.diagnostics.append(.warning(.icsCutItemDropped(component: name, line: String(itemLine), title: title), at: mapper.location(line)))
            return
        }
        try end(name, line: line)
    }

    /// A value typed INTEGER or FLOAT that is not a number (`X-COUNT;VALUE=INTEGER:many`): the
    /// iCalendar writer keeps its text, but jCal and xCal hold a number there and write 0.
    private mutating func checkNumbers(_ property: ICalProperty) {
        guard let declared = property.parameters.first(where: { $0.name == "VALUE" })?.values.first?.uppercased(),
              let type = ICalValueType(rawValue: declared.lowercased()), type == .integer || type == .float else { return }
        let items = StructuredValues.items(of: property.value, property: property.name)
        guard let bad = items.first(where: { !StructuredValues.isNumber($0, integer: type == .integer) }) else { return }
        mapper.diagnostics.append(.warning(.icsNotANumber(property: property.name, type: declared, value: bad), at: mapper.location(property.line)))
    }

    private mutating func calendarProperty(_ property: ICalProperty) {
        switch property.kind {
        case .version:
            if property.value != "2.0" {
                mapper.diagnostics.append(.warning(.icsVersion(version: property.value), at: mapper.location(property.line)))
            }
        case .prodid:
            // Kept, so that a conversion between iCalendar's forms says which product made the
            // calendar (the writer names Almanac only for calendars made from another model).
            if !agenda.carried.contains(where: { $0.name == ICalendarWriter.productProperty }) { agenda.carried.append(property.carried) }
        case .xWRCalname, .name:
            // NAME (RFC 7986) and X-WR-CALNAME usually agree; a second, different name is carried.
            let name = PropertyText.unescape(property.value)
            if agenda.name == nil { agenda.name = name } else if agenda.name != name { agenda.carried.append(property.carried) }
        case .xWRTimezone:
            agenda.timeZone = property.value
            if applyCalendarZone {
                calendarZone = TimeZoneID.resolve(property.value).map { ICUWallClock.shared($0.zone) }
                if calendarZone == nil {
                    mapper.diagnostics.append(.warning(.icsUnknownTimezone(zone: property.value), at: mapper.location(property.line)))
                }
            }
        default:
            agenda.carried.append(property.carried)
        }
    }
}
