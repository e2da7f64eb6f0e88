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

/// Offsets as a sorted list of transitions, filled in year by year as questions reach further:
/// after the first question about a year, offsets and wall-time conversions are a binary search
/// (no ICU calendar is opened per occurrence).
final class TransitionTable: @unchecked Sendable {
    struct Transition {
        /// Seconds since the epoch, UTC.
        let instant: Int
        let offsetBefore: Int
        let offsetAfter: Int
    }

    /// Transitions whose onsets fall in a year.
    private let source: @Sendable (Int) -> [Transition]
    /// The offset before any transition the source reports for `year` and later.
    private let offsetBefore: @Sendable (Int) -> Int
    private var transitions: [Transition] = []
    private var years: ClosedRange<Int>?
    private var startOffset = 0
    private let lock = NSLock()

    init(source: @escaping @Sendable (Int) -> [Transition], offsetBefore: @escaping @Sendable (Int) -> Int) {
        self.source = source
        self.offsetBefore = offsetBefore
    }

    /// The most years read at once when the table grows: it grows by as many years as it holds
    /// (a short expansion reads little more than it needs, the first question reads three
    /// years), up to this many, so a walk through the centuries (a rule begun in 1012 expanded
    /// into 2025) rebuilds the array once per chunk rather than once per year.
    static let chunk = 16

    /// Makes sure the table covers `year` and its neighbours; returns a consistent snapshot.
    /// Only the years not yet read are asked of the source, so a table that grows a year at a
    /// time costs each year once (recomputing the whole range made such walks quadratic).
    private func covering(_ year: Int) -> (transitions: [Transition], startOffset: Int) {
        lock.lock()
        defer { lock.unlock() }
        let wanted = (year - 1)...(year + 1)
        guard let covered = years else {
            transitions = read(wanted)
            startOffset = offsetBefore(wanted.lowerBound)
            years = wanted
            return (transitions, startOffset)
        }
        if covered.contains(wanted.lowerBound), covered.contains(wanted.upperBound) {
            return (transitions, startOffset)
        }
        var low = covered.lowerBound
        var high = covered.upperBound
        let step = min(Self.chunk, covered.count)
        if wanted.lowerBound < low {
            let newLow = min(wanted.lowerBound, low - step)
            transitions = Self.joined(read(newLow...(low - 1)), transitions)
            low = newLow
            startOffset = offsetBefore(low)
        }
        if wanted.upperBound > high {
            let newHigh = max(wanted.upperBound, high + step)
            transitions = Self.joined(transitions, read((high + 1)...newHigh))
            high = newHigh
        }
        years = low...high
        return (transitions, startOffset)
    }

    /// Two runs of transitions, the first from earlier years; sorted again only if a defined
    /// zone's onsets (years of local time) cross at the boundary.
    private static func joined(_ earlier: [Transition], _ later: [Transition]) -> [Transition] {
        var all = earlier + later
        if let last = earlier.last, let first = later.first, last.instant > first.instant {
            all.sort { $0.instant < $1.instant }
        }
        return all
    }

    /// Transitions with onsets in `years`, in order.
    private func read(_ years: ClosedRange<Int>) -> [Transition] {
        var all: [Transition] = []
        for y in years { all += source(y) }
        all.sort { $0.instant < $1.instant }
        return all
    }

    func offset(at seconds: Int) -> Int {
        let year = CivilDateTime(secondsSinceEpoch: seconds).date.year
        let (transitions, start) = covering(year)
        // The last transition at or before the instant.
        let low = transitions.partitioningIndex { $0.instant > seconds }
        return low == 0 ? (transitions.first?.offsetBefore ?? start) : transitions[low - 1].offsetAfter
    }

    /// The instant of a wall time: gaps read with the offset before them, overlaps as the first
    /// occurrence (RFC 5545 §3.3.5).
    func instant(for time: CivilDateTime) -> Int {
        let wall = time.secondsSinceEpoch
        let (transitions, start) = covering(time.date.year)
        // Transitions within a day of the wall time decide; otherwise one offset applies.
        let low = transitions.partitioningIndex { $0.instant >= wall - 2 * 86_400 }
        var previousLimit = Int.min
        var offset = low == 0 ? (transitions.first?.offsetBefore ?? start) : transitions[low - 1].offsetAfter
        var index = low
        while index < transitions.count, transitions[index].instant <= wall + 2 * 86_400 {
            let transition = transitions[index]
            let candidate = wall - offset
            if candidate >= previousLimit && candidate < transition.instant { return candidate }
            // In the gap: with the earlier offset it falls after the transition, with the later before it.
            if candidate >= transition.instant && wall - transition.offsetAfter < transition.instant { return candidate }
            previousLimit = transition.instant
            offset = transition.offsetAfter
            index += 1
        }
        return wall - offset
    }
}

/// An IANA zone from ICU, with its transitions read once per year into a table.
public final class ICUWallClock: WallClock, @unchecked Sendable {
    public let zone: TimeZoneID
    public var name: String { zone.identifier }
    private let table: TransitionTable

    public init(_ zone: TimeZoneID) {
        self.zone = zone
        self.table = TransitionTable(
            source: { year in
                var result: [TransitionTable.Transition] = []
                let start = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0).secondsSinceEpoch
                let end = CivilDateTime(unchecked: CivilDate(unchecked: year + 1, 1, 1), 0, 0, 0).secondsSinceEpoch
                var cursor = Date(timeIntervalSince1970: Double(start - 1))
                while let next = zone.nextTransition(after: cursor), Int(next.timeIntervalSince1970) < end {
                    let seconds = Int(next.timeIntervalSince1970)
                    let before = zone.offset(at: Date(timeIntervalSince1970: Double(seconds - 1))).totalSeconds
                    let after = zone.offset(at: next).totalSeconds
                    if before != after { result.append(.init(instant: seconds, offsetBefore: before, offsetAfter: after)) }
                    cursor = next
                }
                return result
            },
            offsetBefore: { year in
                let start = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0).secondsSinceEpoch
                return zone.offset(at: Date(timeIntervalSince1970: Double(start))).totalSeconds
            })
    }

    public func instant(for time: CivilDateTime) -> Date { Date(timeIntervalSince1970: Double(table.instant(for: time))) }

    public func offset(at instant: Date) -> Int { table.offset(at: Int(instant.timeIntervalSince1970.rounded(.down))) }
}

/// A zone defined by a VTIMEZONE: STANDARD and DAYLIGHT observances with onsets (DTSTART,
/// RRULE, RDATE) and offsets, expanded into a transition table year by year.
public final class DefinedWallClock: WallClock, @unchecked Sendable {
    public let name: String
    /// What the definition had that no time zone has (a rule repeating every second), ignored.
    public let notes: [Diagnostic]
    private let table: TransitionTable

    struct Observance {
        let start: CivilDateTime
        let offsetFrom: Int
        let offsetTo: Int
        /// Rules without COUNT, followed year by year from the year asked about.
        let rules: [RecurrenceRule]
        /// RDATEs and the onsets of COUNT rules, sorted.
        let dates: [CivilDateTime]
    }

    /// The most onsets a COUNT rule is followed for (a yearly rule from 1900 reaches 2900).
    static let countedOnsets = 1_000
    /// The most onsets one rule gives in a year; real zones change twice.
    static let onsetsPerYear = 64

    /// Whether a rule can describe a zone's changes: yearly or monthly (the tz database has only
    /// yearly ones), at one time of day. A file's `FREQ=SECONDLY` observance would otherwise
    /// make each year of the table cost millions of steps.
    static func describesAZone(_ rule: RecurrenceRule) -> Bool {
        (rule.frequency == .yearly || rule.frequency == .monthly)
            && rule.byHour.count <= 1 && rule.byMinute.count <= 1 && rule.bySecond.count <= 1
    }

    /// Parses a VTIMEZONE's text; throws when it defines no usable observance.
    public init(definition: TimeZoneDefinition) throws(Diagnostic) {
        name = definition.id
        var parser = ICalParser(fileName: nil)
        var components: [ICalComponent] = []
        var collector = ComponentCollector { components.append($0) }
        try parser.parse(Array(("BEGIN:VCALENDAR\n" + definition.definition + "\nEND:VCALENDAR").utf8), into: &collector)
        var observances: [Observance] = []
        var notes: [Diagnostic] = []
        for component in components.first?.components ?? [] where component.name == "STANDARD" || component.name == "DAYLIGHT" {
            guard let startText = component.property("DTSTART")?.value,
                  case .floating(let start)? = try? ICalDateTime.parse(startText, tzid: nil),
                  let fromText = component.property("TZOFFSETFROM")?.value, let from = try? ICalUTCOffset.parse(fromText),
                  let toText = component.property("TZOFFSETTO")?.value, let to = try? ICalUTCOffset.parse(toText)
            else { continue }
            var rules: [RecurrenceRule] = []
            var dates: [CivilDateTime] = []
            for property in component.properties("RRULE") {
                guard let rule = try? RecurrenceRule(parsing: property.value) else { continue }
                guard Self.describesAZone(rule) else {
                    notes.append(.warning("ics.timezone-rule-ignored", definition.id, property.value))
                    continue
                }
                if let count = rule.count {
                    dates += RuleIterator(rule: rule, start: start).prefix(min(count, Self.countedOnsets))
                } else {
                    rules.append(rule)
                }
            }
            for rdate in component.properties("RDATE") {
                for part in rdate.value.split(separator: ",") {
                    if case .floating(let time)? = try? ICalDateTime.parse(String(part), tzid: nil) { dates.append(time) }
                }
            }
            observances.append(Observance(start: start, offsetFrom: from, offsetTo: to, rules: rules, dates: dates.sorted()))
        }
        self.notes = notes
        guard !observances.isEmpty else { throw Diagnostic.error("ics.invalid-timezone", definition.id) }
        let frozen = observances
        let transitions: @Sendable (Int) -> [TransitionTable.Transition] = { year in Self.transitions(frozen, in: year) }
        table = TransitionTable(source: transitions, offsetBefore: { year in
            // The offset at the end of the last year with transitions before `year`, else the
            // earliest observance's TZOFFSETFROM.
            var probe = year - 1
            while probe > max(1600, year - 400) {
                if let last = transitions(probe).last { return last.offsetAfter }
                probe -= 1
            }
            return frozen.min { $0.start < $1.start }?.offsetFrom ?? 0
        })
    }

    /// Transitions whose onsets (local time of the onset) fall in `year`.
    static func transitions(_ observances: [Observance], in year: Int) -> [TransitionTable.Transition] {
        var result: [TransitionTable.Transition] = []
        let yearStart = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0)
        let yearEnd = CivilDateTime(unchecked: CivilDate(unchecked: year, 12, 31), 23, 59, 59)
        for observance in observances {
            var onsets: [CivilDateTime] = [observance.start]
            // The dates within the year, found by binary search (a file may list thousands).
            var index = observance.dates.partitioningIndex { $0 >= yearStart }
            while index < observance.dates.count, observance.dates[index] <= yearEnd {
                onsets.append(observance.dates[index])
                index += 1
            }
            for rule in observance.rules {
                let iterator = RuleIterator(rule: rule, start: observance.start, until: nil, skipTo: yearStart)
                for onset in iterator.prefix(while: { $0 <= yearEnd }).prefix(Self.onsetsPerYear) { onsets.append(onset) }
            }
            for onset in onsets where onset >= yearStart && onset <= yearEnd {
                // An onset is a wall time in the offset in force before it.
                result.append(.init(instant: onset.secondsSinceEpoch - observance.offsetFrom,
                                    offsetBefore: observance.offsetFrom, offsetAfter: observance.offsetTo))
            }
        }
        return result.sorted { $0.instant < $1.instant }
    }

    public func offset(at instant: Date) -> Int { table.offset(at: Int(instant.timeIntervalSince1970.rounded(.down))) }

    public func instant(for time: CivilDateTime) -> Date { Date(timeIntervalSince1970: Double(table.instant(for: time))) }
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

    /// What the definitions read so far had that no time zone has (rules that were ignored).
    public var notes: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return collectedNotes
    }
    private var collectedNotes: [Diagnostic] = []

    public func clock(_ name: String) -> (any WallClock)? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = clocks[name] { return cached }
        var clock: (any WallClock)?
        if let definition = definitions[name], let defined = try? DefinedWallClock(definition: definition) {
            clock = defined
            collectedNotes += defined.notes
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

extension RandomAccessCollection {
    /// The first index whose element satisfies `belongs`, in a collection where every element
    /// that does follows every element that does not (a binary search); `endIndex` if none does.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
