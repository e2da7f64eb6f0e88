public import AlmanacCore
public import AlmanacICU
public import Foundation

/// A zone that turns wall times into instants and back: an IANA zone through ICU, or a
/// VTIMEZONE definition from the file, used as given.
public protocol WallClock: Sendable {
    var name: String { get }
    /// The instant a wall time names (gaps read with the offset before them, overlaps as the
    /// first occurrence: RFC 5545 §3.3.5).
    func instant(for time: CivilDateTime) -> Date
    /// The offset from UTC in seconds at an instant.
    func offset(at instant: Date) -> Int
}

extension WallClock {
    public func wallTime(at instant: Date) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant))
    }
}

/// An IANA zone from ICU.
public struct ICUWallClock: WallClock {
    public let zone: TimeZoneID
    public var name: String { zone.identifier }

    public init(_ zone: TimeZoneID) { self.zone = zone }

    public func instant(for time: CivilDateTime) -> Date {
        (try? zone.instant(for: time, gap: .shiftForward, overlap: .earlier)) ?? Date(timeIntervalSince1970: Double(time.secondsSinceEpoch))
    }

    public func offset(at instant: Date) -> Int { zone.offset(at: instant).totalSeconds }
}

/// A zone defined by a VTIMEZONE: STANDARD and DAYLIGHT observances with onsets (DTSTART,
/// RRULE, RDATE) and offsets. Transitions are computed per year on demand.
public final class DefinedWallClock: WallClock, @unchecked Sendable {
    public let name: String

    struct Observance {
        let start: CivilDateTime
        let offsetFrom: Int
        let offsetTo: Int
        let rules: [RecurrenceRule]
        let dates: [CivilDateTime]
    }

    struct Transition {
        /// Seconds since the epoch, UTC.
        let instant: Int
        let offsetBefore: Int
        let offsetAfter: Int
    }

    private let observances: [Observance]
    private var cache: [Int: [Transition]] = [:]
    private let lock = NSLock()

    /// Parses a VTIMEZONE's text; throws when it defines no usable observance.
    public init(definition: TimeZoneDefinition) throws(Diagnostic) {
        name = definition.id
        var parser = ICalParser(fileName: nil)
        var components: [ICalComponent] = []
        var collector = ComponentCollector { components.append($0) }
        try parser.parse(Array(("BEGIN:VCALENDAR\n" + definition.definition + "\nEND:VCALENDAR").utf8), into: &collector)
        var observances: [Observance] = []
        for component in components.first?.components ?? [] where component.name == "STANDARD" || component.name == "DAYLIGHT" {
            guard let startText = component.property("DTSTART")?.value,
                  case .floating(let start)? = try? ICalDateTime.parse(startText, tzid: nil),
                  let fromText = component.property("TZOFFSETFROM")?.value, let from = try? ICalUTCOffset.parse(fromText),
                  let toText = component.property("TZOFFSETTO")?.value, let to = try? ICalUTCOffset.parse(toText)
            else { continue }
            let rules = component.properties("RRULE").compactMap { try? RecurrenceRule(parsing: $0.value) }
            var dates: [CivilDateTime] = []
            for rdate in component.properties("RDATE") {
                for part in rdate.value.split(separator: ",") {
                    if case .floating(let time)? = try? ICalDateTime.parse(String(part), tzid: nil) { dates.append(time) }
                }
            }
            observances.append(Observance(start: start, offsetFrom: from, offsetTo: to, rules: rules, dates: dates))
        }
        guard !observances.isEmpty else { throw Diagnostic.error("ics.invalid-timezone", definition.id) }
        self.observances = observances
    }

    /// Transitions whose onsets fall in `year` (local time of the onset).
    private func transitions(in year: Int) -> [Transition] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[year] { return cached }
        var result: [Transition] = []
        let yearStart = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0)
        let yearEnd = CivilDateTime(unchecked: CivilDate(unchecked: year, 12, 31), 23, 59, 59)
        for observance in observances {
            var onsets: [CivilDateTime] = [observance.start] + observance.dates
            for rule in observance.rules {
                let iterator = RuleIterator(rule: rule, start: observance.start, until: nil, skipTo: yearStart)
                for onset in iterator {
                    if onset > yearEnd { break }
                    onsets.append(onset)
                }
            }
            for onset in onsets where onset >= yearStart && onset <= yearEnd {
                // An onset is a wall time in the offset in force before it.
                result.append(Transition(instant: onset.secondsSinceEpoch - observance.offsetFrom,
                                         offsetBefore: observance.offsetFrom, offsetAfter: observance.offsetTo))
            }
        }
        result.sort { $0.instant < $1.instant }
        cache[year] = result
        return result
    }

    /// Transitions around an instant's year (a year either side covers every wall-time question).
    private func nearbyTransitions(year: Int) -> [Transition] {
        transitions(in: year - 1) + transitions(in: year) + transitions(in: year + 1)
    }

    /// The offset before the earliest onset: the earliest observance's TZOFFSETFROM.
    private var initialOffset: Int {
        observances.min { $0.start < $1.start }?.offsetFrom ?? 0
    }

    public func offset(at instant: Date) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        let year = CivilDateTime(secondsSinceEpoch: seconds).date.year
        let transitions = nearbyTransitions(year: year)
        guard let last = transitions.last(where: { $0.instant <= seconds }) else {
            return transitions.first?.offsetBefore ?? lastOffset(before: year - 1)
        }
        return last.offsetAfter
    }

    /// The offset in force at the end of the last year with transitions before `year`.
    private func lastOffset(before year: Int) -> Int {
        var probe = year
        while probe > 1800 {
            if let last = transitions(in: probe).last { return last.offsetAfter }
            probe -= 1
        }
        return initialOffset
    }

    public func instant(for time: CivilDateTime) -> Date {
        let wall = time.secondsSinceEpoch
        let transitions = nearbyTransitions(year: time.date.year)
        // Offsets in force over the candidate intervals, earliest first.
        var offsets: [(from: Int, to: Int, offset: Int)] = []
        var previous = Int.min
        var current = transitions.first?.offsetBefore ?? lastOffset(before: time.date.year - 1)
        for transition in transitions {
            offsets.append((previous, transition.instant, current))
            previous = transition.instant
            current = transition.offsetAfter
        }
        offsets.append((previous, Int.max, current))
        for interval in offsets {
            let candidate = wall - interval.offset
            if candidate >= interval.from && candidate < interval.to { return Date(timeIntervalSince1970: Double(candidate)) }
        }
        // In a gap (read with the earlier offset it falls after the transition, with the later one
        // before it): use the offset before the gap (RFC 5545 §3.3.5).
        for (index, interval) in offsets.enumerated() where index > 0 {
            let before = wall - offsets[index - 1].offset
            let after = wall - interval.offset
            if before >= interval.from && after < interval.from { return Date(timeIntervalSince1970: Double(before)) }
        }
        return Date(timeIntervalSince1970: Double(wall - current))
    }
}

/// Finds the clock for a zone name: the file's own VTIMEZONE first (used as given), then ICU
/// for IANA ids, Windows names and vendor-prefixed ids.
public final class ZoneTable: @unchecked Sendable {
    private var clocks: [String: (any WallClock)?] = [:]
    private let definitions: [String: TimeZoneDefinition]
    private let lock = NSLock()
    public private(set) var unknown: Set<String> = []

    public init(definitions: [TimeZoneDefinition]) {
        var table: [String: TimeZoneDefinition] = [:]
        for definition in definitions where table[definition.id] == nil { table[definition.id] = definition }
        self.definitions = table
    }

    public func clock(_ name: String) -> (any WallClock)? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = clocks[name] { return cached }
        var clock: (any WallClock)?
        if let definition = definitions[name], let defined = try? DefinedWallClock(definition: definition) {
            clock = defined
        } else if let resolved = TimeZoneID.resolve(name) {
            clock = ICUWallClock(resolved.zone)
        } else {
            unknown.insert(name)
        }
        clocks[name] = clock
        return clock
    }
}

/// Writes VTIMEZONE definitions for IANA zones from ICU's data: each run of yearly transitions
/// that follow one pattern (month, nth weekday, time) becomes one observance with an RRULE.
public enum VTimeZoneWriter {
    public static func definition(for zone: TimeZoneID, id: String, years: ClosedRange<Int>) -> String {
        struct Change {
            let local: CivilDateTime
            let from: Int
            let to: Int
            let daylight: Bool
            var pattern: String {
                let date = local.date
                let length = CivilDate.daysInMonth(year: date.year, month: date.month)
                let nth = date.day + 7 > length ? -1 : (date.day - 1) / 7 + 1
                return "\(daylight)|\(date.month)|\(nth)|\(date.isoWeekday)|\(local.hour):\(local.minute)|\(from)|\(to)"
            }
        }
        var changes: [Change] = []
        var instant = Date(timeIntervalSince1970: Double(CivilDateTime(unchecked: CivilDate(unchecked: years.lowerBound, 1, 1), 0, 0, 0).secondsSinceEpoch))
        let end = Date(timeIntervalSince1970: Double(CivilDateTime(unchecked: CivilDate(unchecked: years.upperBound, 12, 31), 23, 59, 59).secondsSinceEpoch))
        var before = zone.offset(at: instant)
        while let next = zone.nextTransition(after: instant), next <= end {
            let after = zone.offset(at: next)
            if after.totalSeconds != before.totalSeconds || after.isDaylightSaving != before.isDaylightSaving {
                let local = CivilDateTime(secondsSinceEpoch: Int(next.timeIntervalSince1970) + before.totalSeconds)
                changes.append(Change(local: local, from: before.totalSeconds, to: after.totalSeconds, daylight: after.isDaylightSaving))
            }
            before = after
            instant = next
        }
        // X-LIC-LOCATION marks the definition as a well-known zone (libical's convention).
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + id, "X-LIC-LOCATION:" + zone.identifier]
        if changes.isEmpty {
            let offset = ICalUTCOffset.format(before.totalSeconds)
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + offset, "TZOFFSETTO:" + offset, "END:STANDARD"]
        } else {
            // A change that repeats yearly with one pattern (month, nth weekday, time, offsets)
            // becomes one observance with an RRULE; the rest are single onsets.
            var used = [Bool](repeating: false, count: changes.count)
            for index in changes.indices where !used[index] {
                used[index] = true
                let first = changes[index]
                var last = index
                var probe = index + 1
                while probe < changes.count {
                    let year = changes[probe].local.date.year
                    if year > changes[last].local.date.year + 1 { break }
                    if !used[probe], changes[probe].pattern == first.pattern, year == changes[last].local.date.year + 1 {
                        used[probe] = true
                        last = probe
                    }
                    probe += 1
                }
                let kind = first.daylight ? "DAYLIGHT" : "STANDARD"
                lines += ["BEGIN:" + kind, "DTSTART:" + ICalDateTime.basic(first.local),
                          "TZOFFSETFROM:" + ICalUTCOffset.format(first.from), "TZOFFSETTO:" + ICalUTCOffset.format(first.to)]
                if last > index {
                    let date = first.local.date
                    let length = CivilDate.daysInMonth(year: date.year, month: date.month)
                    let nth = date.day + 7 > length ? -1 : (date.day - 1) / 7 + 1
                    var rule = "FREQ=YEARLY;BYMONTH=\(date.month);BYDAY=\(nth)\(RecurrenceRule.Weekday.codes[date.isoWeekday - 1])"
                    let final = changes[last]
                    // A pattern still followed in the last year written is taken to continue.
                    if final.local.date.year < years.upperBound {
                        rule += ";UNTIL=" + ICalDateTime.basic(CivilDateTime(secondsSinceEpoch: final.local.secondsSinceEpoch - final.from)) + "Z"
                    }
                    lines.append("RRULE:" + rule)
                }
                lines.append("END:" + kind)
            }
        }
        lines.append("END:VTIMEZONE")
        return lines.joined(separator: "\n")
    }
}
