public import AlmanacCore
public import AlmanacICU
public import Foundation

/// Expands the items of an Agenda into occurrences within a window: RRULEs (RSCALE=CHINESE
/// included), RDATEs, EXDATEs and RECURRENCE-ID overrides (RANGE=THISANDFUTURE too), with wall
/// times kept across daylight-saving changes. Rules without an end stop at `limit` with a warning.
public struct OccurrenceExpander: Sendable {
    public let agenda: Agenda
    /// The zone floating times and all-day dates are read in: the calendar's X-WR-TIMEZONE, else
    /// the one given.
    public let defaultZone: TimeZoneID
    let zones: ZoneTable
    // Clocks are built once: each caches its zone's transitions.
    private let defaultClock: ICUWallClock
    private let utcClock = ICUWallClock.shared(.utc)

    /// `definitions` reads the time zones the agenda's source defined (`CodecContext.timeZoneDefinitions`);
    /// without it those zones are looked up by name.
    public init(agenda: Agenda, defaultZone: TimeZoneID = .utc, definitions: (any TimeZoneDefinitionReader)? = nil) {
        self.agenda = agenda
        self.defaultZone = agenda.timeZone.flatMap { TimeZoneID.resolve($0)?.zone } ?? defaultZone
        self.zones = ZoneTable(definitions: agenda.timeZones, reader: definitions)
        self.defaultClock = ICUWallClock.shared(self.defaultZone)
    }

    /// The same zones and clocks over other items (clocks keep the transitions they cached).
    private init(_ other: OccurrenceExpander, items: [CalendarItem]) {
        var agenda = other.agenda
        agenda.items = items
        self.agenda = agenda
        self.defaultZone = other.defaultZone
        self.zones = other.zones
        self.defaultClock = other.defaultClock
    }

    /// Occurrences of every item that overlap `from..<until`, sorted by start.
    /// Of an item written more than once (revisions, RFC 5545 §3.8.7.4), only the newest is expanded.
    public func occurrences(from: Date, until: Date, limit: Int = 10_000) -> (occurrences: [Occurrence], diagnostics: [Diagnostic]) {
        let current = Revisions.current(agenda.items)
        var overrides: [String: [Int]] = [:]
        for index in current where agenda.items[index].recurrenceID != nil {
            overrides[agenda.items[index].uid, default: []].append(index)
        }
        var result: [Occurrence] = []
        var diagnostics: [Diagnostic] = []
        var masters = Set<String>()
        for index in current where agenda.items[index].recurrenceID == nil {
            let item = agenda.items[index]
            masters.insert(item.uid)
            let expanded = expand(index, overrides: overrides[item.uid] ?? [], from: from, until: until, limit: limit)
            result += expanded.occurrences
            diagnostics += expanded.diagnostics
        }
        // Overrides whose master is missing still happen.
        for (uid, indices) in overrides where !masters.contains(uid) {
            for index in indices {
                if let single = single(index, recurrenceID: agenda.items[index].recurrenceID!), overlaps(single, from, until) {
                    result.append(single)
                }
            }
        }
        result.sort { ($0.startInstant, $0.uid) < ($1.startInstant, $1.uid) }
        // Whichever lookup read a definition first (a start, an EXDATE in another zone), its notes are told once here.
        return (result, diagnostics + zones.notes)
    }

    /// Occurrences of one item (and its overrides) that overlap `from..<until`.
    public func expand(_ index: Int, overrides: [Int], from: Date, until: Date, limit: Int = 10_000)
        -> (occurrences: [Occurrence], diagnostics: [Diagnostic])
    {
        expand(agenda.items[index], index: index, overrides: overrides.map { ($0, agenda.items[$0]) }, from: from, until: until, limit: limit)
    }

    /// Occurrences of `item` (whose occurrences carry `index`) and its overrides (each with the
    /// index its occurrences carry) that overlap `from..<until`.
    func expand(_ item: CalendarItem, index: Int, overrides: [(index: Int, item: CalendarItem)], from: Date, until: Date, limit: Int)
        -> (occurrences: [Occurrence], diagnostics: [Diagnostic])
    {
        var diagnostics: [Diagnostic] = []
        guard let start = item.start ?? item.due else { return ([], []) }
        let clock = self.clock(for: start, diagnostics: &diagnostics)
        let wallStart = Self.wall(start)
        let span = self.span(of: item, from: start, clock: clock)
        let recurrence = item.recurrence

        // An item that does not repeat and has no overrides: its one occurrence.
        if overrides.isEmpty, recurrence == nil || (recurrence!.rules.isEmpty && recurrence!.dates.isEmpty && recurrence!.periods.isEmpty) {
            let occurrence = make(item.uid, index, wall: wallStart, like: start, span: span, clock: clock, recurrenceID: Self.value(wallStart, like: start))
            let excluded = recurrence.map { recurrence in
                recurrence.exceptions.contains { convert($0, toWallOf: start, clock: clock) == wallStart || ($0.isAllDay && $0.day == wallStart.date) }
            } ?? false
            return (overlaps(occurrence, from, until) && !excluded ? [occurrence] : [], diagnostics)
        }

        // Overrides by the wall time (in the master's zone) of the occurrence they replace.
        // Of two revisions of one override (in the order written), the newer replaces the occurrence.
        var replaced: [CivilDateTime: Int] = [:]
        var superseded = Set<Int>()
        var thisAndFuture: [(wall: CivilDateTime, index: Int)] = []
        for (position, override) in overrides.enumerated() {
            guard let rid = override.item.recurrenceID else { continue }
            let wall = convert(rid, toWallOf: start, clock: clock)
            if let earlier = replaced[wall] {
                guard Revisions.supersedes(override.item, overrides[earlier].item) else {
                    superseded.insert(position)
                    continue
                }
                superseded.insert(earlier)
            }
            replaced[wall] = position
            if override.item.recurrenceThisAndFuture { thisAndFuture.append((wall, position)) }
        }
        if !superseded.isEmpty { thisAndFuture.removeAll { superseded.contains($0.index) } }
        thisAndFuture.sort { $0.wall < $1.wall }

        // The wall times: rules, extra dates, minus exceptions.
        let windowStart = clock.wallTime(at: from.addingTimeInterval(-Double(max(span, 0)) - 86_400))
        let windowEnd = clock.wallTime(at: until.addingTimeInterval(86_400))
        let countFrom = clock.wallTime(at: from.addingTimeInterval(-Double(max(span, 0))))
        var walls: [CivilDateTime] = []
        var capped = false
        if let recurrence, !recurrence.rules.isEmpty {
            for written in recurrence.rules {
                var rule = written
                if let scale = rule.scale, scale != "CHINESE", scale != "GREGORIAN" {
                    diagnostics.append(.warning(.recurrenceUnsupportedRscale(scale: scale, title: item.title)))
                }
                // A day has no time of day to choose: RFC 5545 §3.3.10 forbids BYHOUR, BYMINUTE and
                // BYSECOND with a DATE start, and libical ignores them (kept in the item as written).
                if start.isAllDay, !(rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty) {
                    diagnostics.append(.warning(.recurrenceTimePartsIgnored(title: item.title)))
                    (rule.byHour, rule.byMinute, rule.bySecond) = ([], [], [])
                }
                let until = rule.until.map { convert($0, toWallOf: start, clock: clock, endOfDay: true) }
                var iterator = RuleIterator(rule: rule, start: wallStart, until: until, skipTo: windowStart)
                var produced = 0
                var steps = 0
                while let wall = iterator.next() {
                    if wall > windowEnd { break }
                    // The limit counts occurrences that can reach the window (the day of margin
                    // before it would otherwise use up an every-second rule's limit); the steps
                    // cap bounds the work of a rule that never ends, whatever its span.
                    steps += 1
                    if wall >= countFrom { produced += 1 }
                    if produced > limit || steps > max(limit * 20, 200_000) {
                        capped = true
                        break
                    }
                    if wall >= windowStart { walls.append(wall) }
                }
                if iterator.exhaustedEarly { diagnostics.append(.warning(.recurrenceNeverMatches(title: item.title))) }
            }
        } else {
            walls.append(wallStart)
        }
        for extra in recurrence?.dates ?? [] { walls.append(convert(extra, toWallOf: start, clock: clock)) }
        // A period lasts until its own end, or for its own duration.
        var periodSpans: [CivilDateTime: Int] = [:]
        for period in recurrence?.periods ?? [] {
            let wall = convert(period.start, toWallOf: start, clock: clock)
            walls.append(wall)
            if let end = period.end {
                periodSpans[wall] = convert(end, toWallOf: start, clock: clock).secondsSinceEpoch - wall.secondsSinceEpoch
            } else if let text = period.duration, let duration = try? CalendarDuration(parsing: text) {
                periodSpans[wall] = duration.totalSeconds
            }
        }
        if capped { diagnostics.append(.warning(.recurrenceCapped(title: item.title, limit: String(limit)))) }
        // One rule alone gives its wall times in order, once each; more sources are merged.
        if (recurrence?.rules.count ?? 0) > 1 || !(recurrence?.dates.isEmpty ?? true) || !(recurrence?.periods.isEmpty ?? true) {
            walls = Array(Set(walls)).sorted()
        }
        var excluded: Set<CivilDateTime> = []
        var excludedDays: Set<CivilDate> = []
        if let exceptions = recurrence?.exceptions, !exceptions.isEmpty {
            excluded = Set(exceptions.map { convert($0, toWallOf: start, clock: clock) })
            excludedDays = Set(exceptions.filter(\.isAllDay).map(\.day))
            walls.removeAll { excluded.contains($0) || excludedDays.contains($0.date) }
        }

        var result: [Occurrence] = []
        result.reserveCapacity(walls.count)
        var usedOverrides = Set<Int>()
        for wall in walls {
            let recurrenceID = Self.value(wall, like: start)
            if !replaced.isEmpty, let position = replaced[wall] {
                let replacement = single(overrides[position].item, index: overrides[position].index, recurrenceID: recurrenceID)
                if let replacement {
                    usedOverrides.insert(position)
                    if overlaps(replacement, from, until) { result.append(replacement) }
                    continue
                }
            }
            var occurrence = make(item.uid, index, wall: wall, like: start, span: periodSpans.isEmpty ? span : periodSpans[wall] ?? span,
                                  clock: clock, recurrenceID: recurrenceID)
            // RANGE=THISANDFUTURE: later occurrences move by the override's shift and take its details.
            if !thisAndFuture.isEmpty, let governing = thisAndFuture.last(where: { $0.wall <= wall }),
               let overrideStart = overrides[governing.index].item.start {
                let override = overrides[governing.index]
                let shift = Self.wall(overrideStart).secondsSinceEpoch - governing.wall.secondsSinceEpoch
                let moved = CivilDateTime(secondsSinceEpoch: wall.secondsSinceEpoch + shift)
                let overrideSpan = self.span(of: override.item, from: overrideStart, clock: clock)
                occurrence = make(override.item.uid, override.index, wall: moved, like: start, span: overrideSpan, clock: clock, recurrenceID: recurrenceID)
                occurrence.isOverridden = true
            }
            if overlaps(occurrence, from, until) { result.append(occurrence) }
        }
        // Overrides that name an occurrence the rules do not produce still happen, but not one the
        // series excludes: an EXDATE on a changed occurrence deletes the change too (Google and
        // Outlook delete an edited occurrence so; recurring-ical-events and Thunderbird read it so).
        for (position, override) in overrides.enumerated() where !usedOverrides.contains(position) && !superseded.contains(position) {
            guard let rid = override.item.recurrenceID, !override.item.recurrenceThisAndFuture,
                  let replacement = single(override.item, index: override.index, recurrenceID: rid), overlaps(replacement, from, until)
            else { continue }
            if !excluded.isEmpty || !excludedDays.isEmpty {
                let wall = convert(rid, toWallOf: start, clock: clock)
                if excluded.contains(wall) || excludedDays.contains(wall.date) {
                    diagnostics.append(.note(.recurrenceDeletedOverride(title: item.title, date: rid.day.description)))
                    continue
                }
            }
            result.append(replacement)
        }
        return (result, diagnostics)
    }

    // MARK: Pieces

    private func overlaps(_ occurrence: Occurrence, _ from: Date, _ until: Date) -> Bool {
        if occurrence.endInstant > occurrence.startInstant {
            return occurrence.startInstant < until && occurrence.endInstant > from
        }
        return occurrence.startInstant >= from && occurrence.startInstant < until
    }

    /// The occurrence an item describes by itself (an override, or an item without rules).
    private func single(_ index: Int, recurrenceID: DateValue) -> Occurrence? {
        single(agenda.items[index], index: index, recurrenceID: recurrenceID)
    }

    private func single(_ item: CalendarItem, index: Int, recurrenceID: DateValue) -> Occurrence? {
        guard let start = item.start ?? item.due else { return nil }
        var ignored: [Diagnostic] = []
        let clock = self.clock(for: start, diagnostics: &ignored)
        var occurrence = make(item.uid, index, wall: Self.wall(start), like: start, span: span(of: item, from: start, clock: clock),
                              clock: clock, recurrenceID: recurrenceID)
        occurrence.isOverridden = item.recurrenceID != nil
        return occurrence
    }

    private func make(_ uid: String, _ index: Int, wall: CivilDateTime, like start: DateValue, span: Int, clock: any WallClock,
                      recurrenceID: DateValue) -> Occurrence {
        let value = Self.value(wall, like: start)
        let startInstant = clock.instant(for: wall)
        let endValue: DateValue?
        let endInstant: Date
        if start.isAllDay {
            // All-day spans count days on the calendar, not hours.
            let days = max(1, span / 86_400)
            let endDate = wall.date.adding(days: days)
            endValue = .date(endDate)
            endInstant = clock.instant(for: CivilDateTime(unchecked: endDate, 0, 0, 0))
        } else {
            // Wall-clock spans: a 09:00–10:00 meeting stays 09:00–10:00 across a DST change.
            let endWall = CivilDateTime(secondsSinceEpoch: wall.secondsSinceEpoch + span)
            endValue = span > 0 ? Self.value(endWall, like: start) : nil
            endInstant = span > 0 ? clock.instant(for: endWall) : startInstant
        }
        return Occurrence(uid: uid, itemIndex: index, start: value, end: endValue,
                          startInstant: startInstant, endInstant: endInstant, recurrenceID: recurrenceID, isOverridden: false)
    }

    /// How long an item lasts, in wall-clock seconds (DTEND − DTSTART, or DURATION).
    private func span(of item: CalendarItem, from start: DateValue, clock: any WallClock) -> Int {
        // An end before the start (the reader warns of it) lasts no time.
        if let end = item.end {
            return max(0, convert(end, toWallOf: start, clock: clock).secondsSinceEpoch - Self.wall(start).secondsSinceEpoch)
        }
        if let text = item.duration, let duration = try? CalendarDuration(parsing: text) { return duration.totalSeconds }
        return start.isAllDay ? 86_400 : 0
    }

    /// The clock a start value's wall times are read on.
    private func clock(for value: DateValue, diagnostics: inout [Diagnostic]) -> any WallClock {
        switch value {
        case .zoned(_, let zone):
            if let clock = zones.clock(zone) { return clock }
            diagnostics.append(.warning(.timezoneUnknownInCalendar(zone: zone)))
            return defaultClock
        case .utc: return utcClock
        case .offset(_, let seconds): return FixedOffsetClock(seconds: seconds)
        case .floating, .date: return defaultClock
        }
    }

    /// A value as a wall time on the clock of `start` (an EXDATE in UTC for an event in Taipei).
    private func convert(_ value: DateValue, toWallOf start: DateValue, clock: any WallClock, endOfDay: Bool = false) -> CivilDateTime {
        switch (value, start) {
        case (.date(let date), .date):
            return CivilDateTime(unchecked: date, 0, 0, 0)
        case (.date(let date), _):
            return endOfDay ? CivilDateTime(unchecked: date, 23, 59, 59) : CivilDateTime(unchecked: date, 0, 0, 0)
        // A day named by a time in a zone (Exchange: `RECURRENCE-ID;TZID=GMT Standard Time:20200416T000000`
        // for an all-day series) is the day written, whatever zone the calendar is read in.
        case (.zoned(let time, _), .date), (.floating(let time), .date):
            return endOfDay ? time : CivilDateTime(unchecked: time.date, 0, 0, 0)
        case (.utc(let time), _):
            return clock.wallTime(at: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch)))
        case (.offset(let time, let seconds), _):
            return clock.wallTime(at: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch - seconds)))
        case (.zoned(let time, let zone), .zoned(_, let startZone)) where zone == startZone:
            return time
        case (.zoned(let time, let zone), _):
            guard let other = zones.clock(zone) else { return time }
            return clock.wallTime(at: other.instant(for: time))
        case (.floating(let time), _):
            return time
        }
    }

    static func wall(_ value: DateValue) -> CivilDateTime {
        switch value {
        case .date(let date): CivilDateTime(unchecked: date, 0, 0, 0)
        case .floating(let time), .utc(let time), .zoned(let time, _), .offset(let time, _): time
        }
    }

    /// A wall time in the same form as `start` (date, floating, zoned or UTC).
    static func value(_ wall: CivilDateTime, like start: DateValue) -> DateValue {
        switch start {
        case .date: .date(wall.date)
        case .floating: .floating(wall)
        case .zoned(_, let zone): .zoned(wall, zone: zone)
        case .utc: .utc(wall)
        case .offset(_, let seconds): .offset(wall, seconds: seconds)
        }
    }
}

extension OccurrenceExpander {
    /// The first occurrence of an item that starts on or after `day` (in the default zone), looking
    /// at most `horizon` days ahead: the "next birthday" a countdown counts to.
    public func nextOccurrence(of index: Int, onOrAfter day: CivilDate, horizon: Int = 366 * 60) -> Occurrence? {
        let start = (try? defaultZone.instant(for: CivilDateTime(date: day))) ?? Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86_400)
        // Look a year at a time, so a rule far from its DTSTART does not expand decades at once.
        var from = start
        var remaining = horizon
        while remaining > 0 {
            let span = min(remaining, 400)
            let until = from.addingTimeInterval(Double(span) * 86_400)
            let found = expand(index, overrides: [], from: from, until: until, limit: 10_000).occurrences
                .filter { $0.isAllDay ? $0.start.day >= day : $0.startInstant >= start }
            if let first = found.min(by: { $0.startInstant < $1.startInstant }) { return first }
            if agenda.items[index].recurrence == nil { return nil }
            from = until
            remaining -= span
        }
        return nil
    }

    /// Occurrences of an item that need not be in the agenda (one being streamed), with the
    /// overrides (RECURRENCE-ID) of its UID, read with the agenda's zones. An occurrence's
    /// `itemIndex` is 0 for the item and 1 + n for `overrides[n]`.
    public func occurrences(of item: CalendarItem, overrides: [CalendarItem], from: Date, until: Date, limit: Int = 10_000)
        -> (occurrences: [Occurrence], diagnostics: [Diagnostic])
    {
        if let rid = item.recurrenceID {
            // An override whose master is not in the input still happens.
            guard let single = single(item, index: 0, recurrenceID: rid), overlaps(single, from, until) else { return ([], []) }
            return ([single], [])
        }
        return expand(item, index: 0, overrides: overrides.enumerated().map { ($0.offset + 1, $0.element) }, from: from, until: until, limit: limit)
    }

    /// `diagnostics` less the warnings that one of `zones` was unknown: for zones a streamed
    /// calendar defined after the items that used them, which are then expanded again.
    public static func withoutUnknownZoneWarnings(_ diagnostics: [Diagnostic], for zones: Set<String>) -> [Diagnostic] {
        diagnostics.filter { !($0.code == .timezoneUnknownInCalendar && zones.contains($0.message.arguments.first ?? "")) }
    }

    /// The notes about time zone definitions met so far (each once), for the end of a streamed expansion.
    public var zoneNotes: [Diagnostic] { zones.notes }

    /// The next occurrence of an item that need not be in the agenda (a row being streamed),
    /// read with the agenda's zones.
    public func nextOccurrence(of item: CalendarItem, onOrAfter day: CivilDate, horizon: Int = 366 * 60) -> Occurrence? {
        OccurrenceExpander(self, items: [item]).nextOccurrence(of: 0, onOrAfter: day, horizon: horizon)
    }
}
