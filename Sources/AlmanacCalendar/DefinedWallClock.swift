public import AlmanacCore
public import AlmanacICU
public import Foundation

/// A zone a calendar file defines: observances with onsets (a first onset, rules, single dates)
/// and offsets, expanded into a transition table year by year.
public final class DefinedWallClock: WallClock, @unchecked Sendable {
    public let name: String
    /// What the definition had that no time zone has (a rule repeating every second), ignored.
    public let notes: [Diagnostic]
    private let table: TransitionTable
    /// The definition's earliest onset, as its wall time and as an instant: before it, the definition
    /// says only one offset (the earliest observance's TZOFFSETFROM).
    public let firstOnset: CivilDateTime
    public let firstOnsetInstant: Date

    /// An observance as the table reads it: rules without COUNT are followed year by year from
    /// the year asked about; the onsets of COUNT rules are listed once with the single dates.
    struct Onsets {
        let start: CivilDateTime
        let offsetFrom: Int
        let offsetTo: Int
        let rules: [RecurrenceRule]
        /// Single dates and the onsets of COUNT rules, sorted.
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

    /// A clock over a definition's observances; throws when there is none.
    public init(name: String, observances: [ZoneObservance]) throws(Diagnostic) {
        self.name = name
        var notes: [Diagnostic] = []
        var onsets: [Onsets] = []
        for observance in observances {
            var rules: [RecurrenceRule] = []
            var dates = observance.dates
            for rule in observance.rules {
                guard Self.describesAZone(rule) else {
                    notes.append(.warning(.timezoneRuleIgnored(zone: name, rule: rule.description)))
                    continue
                }
                if let count = rule.count {
                    dates += RuleIterator(rule: rule, start: observance.start).prefix(min(count, Self.countedOnsets))
                } else {
                    rules.append(rule)
                }
            }
            onsets.append(Onsets(start: observance.start, offsetFrom: observance.offsetFrom, offsetTo: observance.offsetTo,
                                 rules: rules, dates: dates.sorted()))
        }
        self.notes = notes
        guard !onsets.isEmpty else { throw Diagnostic.error(.timezoneNoObservance(zone: name)) }
        let earliest = onsets.min { $0.start < $1.start }!
        firstOnset = earliest.start
        firstOnsetInstant = Date(timeIntervalSince1970: Double(earliest.start.secondsSinceEpoch - earliest.offsetFrom))
        let frozen = onsets
        // Every single onset with the offset it sets, in order (for the years past the probe below).
        let singleOnsets = onsets.flatMap { observance in ([observance.start] + observance.dates).map { ($0, observance.offsetTo) } }
            .sorted { $0.0 < $1.0 }
        let transitions: @Sendable (Int) -> [TransitionTable.Transition] = { year in Self.transitions(frozen, in: year) }
        table = TransitionTable(source: transitions, offsetBefore: { year in
            // The offset at the end of the last year with transitions before `year`; past the years
            // probed, the offset of the latest onset before `year` (Outlook starts a zone without
            // daylight time, Singapore's or Taipei's, at one onset in 1601); else the earliest
            // observance's offset before its onset.
            var probe = year - 1
            while probe > max(1600, year - 400) {
                if let last = transitions(probe).last { return last.offsetAfter }
                probe -= 1
            }
            if let latest = singleOnsets.last(where: { $0.0.date.year < year }) { return latest.1 }
            return frozen.min { $0.start < $1.start }?.offsetFrom ?? 0
        })
    }

    /// Transitions whose onsets (local time of the onset) fall in `year`.
    static func transitions(_ observances: [Onsets], in year: Int) -> [TransitionTable.Transition] {
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
