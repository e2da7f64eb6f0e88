public import AlmanacCore
import AlmanacICU

/// Reads a VTIMEZONE's STANDARD and DAYLIGHT parts into observances the calendar engine turns
/// into a clock (RFC 5545 §3.6.5). The iCalendar codecs offer it as their
/// `TimeZoneDefinitionReader` capability.
public struct VTimeZoneReader: TimeZoneDefinitionReader {
    public init() {}

    public func observances(of definition: TimeZoneDefinition) throws(Diagnostic) -> [ZoneObservance] {
        var parser = ICalParser(fileName: nil)
        var components: [ICalComponent] = []
        var collector = ComponentCollector { components.append($0) }
        try parser.parse(Array(("BEGIN:VCALENDAR\n" + definition.definition + "\nEND:VCALENDAR").utf8), into: &collector)
        var observances: [ZoneObservance] = []
        for component in components.first?.components ?? [] where component.name == "STANDARD" || component.name == "DAYLIGHT" {
            guard let startText = component.property("DTSTART")?.value,
                  case .floating(let start)? = try? BasicDateTime.parse(startText, tzid: nil),
                  let fromText = component.property("TZOFFSETFROM")?.value, let from = try? UTCOffset.parse(fromText),
                  let toText = component.property("TZOFFSETTO")?.value, let to = try? UTCOffset.parse(toText)
            else { continue }
            // A rule that cannot be read gives no onsets; the zone keeps its other parts.
            let rules = component.properties("RRULE").compactMap { try? RecurrenceRule(parsing: $0.value) }
            var dates: [CivilDateTime] = []
            for rdate in component.properties("RDATE") {
                for part in rdate.value.split(separator: ",") {
                    if case .floating(let time)? = try? BasicDateTime.parse(String(part), tzid: nil) { dates.append(time) }
                }
            }
            observances.append(ZoneObservance(kind: component.name == "DAYLIGHT" ? .daylight : .standard, start: start,
                                              offsetFrom: from, offsetTo: to, rules: rules, dates: dates,
                                              name: component.property("TZNAME").map { PropertyText.unescape($0.value) }))
        }
        guard !observances.isEmpty else { throw Diagnostic.error(.icsInvalidTimezone(zone: definition.id)) }
        return observances
    }
}
