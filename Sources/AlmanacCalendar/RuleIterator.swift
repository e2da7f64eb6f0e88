public import AlmanacCore
public import AlmanacICU

/// Expands one recurrence rule into wall-clock occurrences, lazily and in order.
///
/// Works on wall times (what the clock shows in the event's zone), so a 09:00 weekly meeting
/// stays at 09:00 across daylight-saving changes; the caller turns wall times into instants.
/// The first occurrence is always DTSTART itself (RFC 5545 counts it, matched or not).
/// Periods follow the RFC 5545 expansion table; RSCALE=CHINESE counts years and months in the
/// Chinese calendar (RFC 7529), with SKIP for leap months and 30th days that a year lacks.
public struct RuleIterator: IteratorProtocol, Sequence {
    public let rule: RecurrenceRule
    public let start: CivilDateTime
    /// Occurrences after this wall time end the expansion (UNTIL, already in the start's zone).
    let until: CivilDateTime?
    /// Periods before this wall time are skipped without generating them (rules without COUNT only).
    let skipTo: CivilDateTime?

    private var periodIndex = 0
    private var pending = Candidates.empty
    private var pendingIndex = 0
    private var emitted = 0
    private var emptyPeriods = 0
    private var startEmitted = false
    private var finished = false
    /// Why the expansion stopped early, if it did (a rule that never matches).
    public private(set) var exhaustedEarly = false

    private let lunar: Bool
    private let lunarStart: LunarDate?
    /// BYMONTH's Gregorian months, sorted: leap months (`6L`) and 13 (which RFC 7529 allows for
    /// other calendars) name no Gregorian month, so a rule left with none never matches.
    private let solarMonths: [Int]
    private let namesNothing: Bool
    /// The year a yearly rule's first period is: DTSTART's, or with BYWEEKNO its week-numbering
    /// year (2024-12-31 is in week 1 of 2025), so INTERVAL counts week-years as libical does.
    private let firstYear: Int
    /// The months a yearly rule's days fall in: BYMONTH's; without it, DTSTART's month when the
    /// rule names days of the month (BYMONTHDAY=29 from 29 February stays on 29 February, as in
    /// libical: what the rule does not say comes from DTSTART), else every month.
    private let yearlyMonths: [Int]

    /// `until` overrides the rule's own UNTIL when the caller has converted it into the start's
    /// zone; `skipTo` lets an unbounded rule start near a window far from DTSTART.
    public init(rule: RecurrenceRule, start: CivilDateTime, until: CivilDateTime? = nil, skipTo: CivilDateTime? = nil) {
        self.rule = rule
        self.start = start
        var limit = until
        if limit == nil, let ruleUntil = rule.until {
            switch ruleUntil {
            case .date(let date): limit = CivilDateTime(unchecked: date, 23, 59, 59)
            case .floating(let time), .utc(let time), .zoned(let time, _), .offset(let time, _): limit = time
            }
        }
        self.until = limit
        self.skipTo = rule.count == nil ? skipTo : nil
        self.lunar = rule.scale == "CHINESE"
        self.lunarStart = lunar ? ChineseCalendar.lunarDate(for: start.date) : nil
        self.solarMonths = Set(rule.byMonth.filter { !$0.isLeap && (1...12).contains($0.number) }.map(\.number)).sorted()
        self.namesNothing = Self.namesNothing(rule)
        self.firstYear = rule.byWeekNumber.isEmpty ? start.date.year : Self.weekNumber(of: start.date, weekStart: rule.weekStart).year
        self.yearlyMonths = !rule.byMonth.isEmpty ? solarMonths
            : !rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty ? [start.date.month]
            : Array(1...12)
        if let skipTo = self.skipTo, skipTo > start { periodIndex = firstPeriod(atOrAfter: skipTo) }
    }

    /// Whether a rule names only months or days its calendar never has (BYMONTH=13 alone), so
    /// that no period needs to be looked at: DTSTART is its only occurrence. (A Chinese-calendar
    /// walk past the published table costs ICU's astronomy for each year, seconds for the empty
    /// years a rule may take to show it never matches.)
    static func namesNothing(_ rule: RecurrenceRule) -> Bool {
        if !rule.byMonth.isEmpty {
            let lunar = rule.scale == "CHINESE"
            let real = rule.byMonth.contains { (1...12).contains($0.number) && (lunar || !$0.isLeap) }
            if !real { return true }
        }
        if rule.scale == "CHINESE", !rule.byMonthDay.isEmpty, !rule.byMonthDay.contains(where: { abs($0) <= 30 }) { return true }
        return false
    }

    public mutating func next() -> CivilDateTime? {
        if finished { return nil }
        if !startEmitted {
            startEmitted = true
            if skipTo == nil || periodIndex == 0 {
                if let until, start > until { finished = true; return nil }
                emitted = 1
                if let count = rule.count, count <= 1 { finished = true }
                return start
            }
        }
        while true {
            if pendingIndex < pending.count {
                let candidate = pending[pendingIndex]
                pendingIndex += 1
                if candidate <= start { continue }
                if let until, candidate > until { finished = true; return nil }
                emitted += 1
                if let count = rule.count, emitted >= count { finished = true }
                return candidate
            }
            if namesNothing {
                exhaustedEarly = true
                finished = true
                return nil
            }
            guard periodIndex < Int.max / 2, let candidates = period(periodIndex) else {
                finished = true
                return nil
            }
            periodIndex += 1
            pending = candidates
            // DTSTART was given first; candidates up to it are skipped by search, not one by one.
            pendingIndex = candidates.partitioningIndex { $0 > start }
            if candidates.isEmpty {
                emptyPeriods += 1
                if emptyPeriods > emptyPeriodLimit {
                    exhaustedEarly = true
                    finished = true
                    return nil
                }
            } else {
                emptyPeriods = 0
                if let until, let first = candidates.first, first > until, first > start { finished = true; return nil }
            }
        }
    }

    /// How many periods in a row may produce nothing before the rule is taken to never match again
    /// (29 February on a Monday needs 28 years; Friday the 13th at most 14 months).
    private var emptyPeriodLimit: Int {
        // A Chinese leap month recurs within two centuries for the months real calendars use.
        if lunar { return rule.frequency == .yearly ? 250 : 3_000 }
        return switch rule.frequency {
        case .yearly: 1_000
        case .monthly: 12_000
        case .weekly: 60_000
        case .daily: 400_000
        case .hourly, .minutely, .secondly: 400_000
        }
    }

    // MARK: Periods

    /// The candidates of period `index` (sorted, BYSETPOS applied), or nil past the year 9999.
    private func period(_ index: Int) -> Candidates? {
        let step = index * rule.interval
        if lunar, rule.frequency == .yearly || rule.frequency == .monthly {
            return lunarPeriod(step)
        }
        switch rule.frequency {
        case .yearly:
            let year = firstYear + step
            guard year <= 9999 else { return nil }
            return withTimes(yearDays(year))
        case .monthly:
            let monthIndex = start.date.year * 12 + (start.date.month - 1) + step
            let year = monthIndex / 12
            guard year <= 9999 else { return nil }
            return withTimes(monthDays(year, monthIndex % 12 + 1))
        case .weekly:
            let weekStart = Self.weekStart(of: start.date, weekStart: rule.weekStart).daysSinceEpoch + 7 * step
            guard weekStart < 2_932_896 else { return nil }
            return withTimes(weekDays(weekStart))
        case .daily:
            let day = start.date.daysSinceEpoch + step
            guard day < 2_932_896 else { return nil }
            let date = CivilDate(daysSinceEpoch: day)
            return withTimes(dayMatches(date) ? [date] : [])
        case .hourly, .minutely, .secondly:
            return subDailyPeriod(step)
        }
    }

    /// The first period index whose candidates can reach `time` (a little before, never after).
    private func firstPeriod(atOrAfter time: CivilDateTime) -> Int {
        let interval = rule.interval
        let raw: Int
        switch rule.frequency {
        case .yearly: raw = time.date.year - firstYear - 1
        case .monthly: raw = (time.date.year * 12 + time.date.month) - (start.date.year * 12 + start.date.month) - 1
        case .weekly: raw = (time.date.daysSinceEpoch - start.date.daysSinceEpoch) / 7 - 1
        case .daily: raw = time.date.daysSinceEpoch - start.date.daysSinceEpoch - 1
        case .hourly: raw = (time.secondsSinceEpoch - start.secondsSinceEpoch) / 3600 - 1
        case .minutely: raw = (time.secondsSinceEpoch - start.secondsSinceEpoch) / 60 - 1
        case .secondly: raw = time.secondsSinceEpoch - start.secondsSinceEpoch - 1
        }
        return Swift.max(0, raw / interval)
    }

    /// The period's days at each time of day BYHOUR, BYMINUTE and BYSECOND name (or DTSTART's).
    private func withTimes(_ days: [CivilDate]) -> Candidates {
        guard !days.isEmpty else { return Candidates.empty }
        let hours = rule.byHour.isEmpty ? [start.hour] : rule.byHour.sorted()
        let minutes = rule.byMinute.isEmpty ? [start.minute] : rule.byMinute.sorted()
        let seconds = rule.bySecond.isEmpty ? [start.second] : rule.bySecond.sorted()
        var times: [Int] = []
        times.reserveCapacity(hours.count * minutes.count * seconds.count)
        for hour in hours {
            for minute in minutes {
                for second in seconds { times.append(hour * 3600 + minute * 60 + Swift.min(second, 59)) }
            }
        }
        return Candidates(days: days, times: times, setPositions: rule.bySetPosition)
    }

    // MARK: Gregorian dates

    private var startWeekday: RecurrenceRule.Weekday { RecurrenceRule.Weekday(rawValue: start.date.isoWeekday)! }


    private func yearDays(_ year: Int) -> [CivilDate] {
        let simple = rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty
        if simple {
            // The common case (birthdays, anniversaries): one day in each month named, directly.
            let months = rule.byMonth.isEmpty ? [start.date.month] : solarMonths
            return dedupedSorted(months.compactMap { resolve(year: year, month: $0, day: start.date.day) })
        }
        var days: [CivilDate] = []
        if !rule.byWeekNumber.isEmpty {
            // Weeks may start in the previous December or end in the next January.
            let first = (try? CivilDate(year: year, month: 1, day: 1))!.daysSinceEpoch - 6
            let last = (try? CivilDate(year: year, month: 12, day: 31))!.daysSinceEpoch + 6
            for day in first...last {
                let date = CivilDate(daysSinceEpoch: day)
                if yearDayMatches(date, year: year) { days.append(date) }
            }
            return days
        }
        let months = yearlyMonths
        if rule.byYearDay.isEmpty && rule.byDay.isEmpty && skipApplies {
            // BYMONTHDAY with SKIP: invalid days move instead of vanishing.
            for month in months {
                for day in rule.byMonthDay.sorted() {
                    if day > 0, let resolved = resolve(year: year, month: month, day: day) { days.append(resolved) }
                    if day < 0, let date = monthDay(year, month, day) { days.append(date) }
                }
            }
            return dedupedSorted(days)
        }
        for month in months {
            let length = CivilDate.daysInMonth(year: year, month: month)
            for day in 1...length {
                let date = CivilDate(unchecked: year, month, day)
                if yearDayMatches(date, year: year) { days.append(date) }
            }
        }
        return days
    }

    private func yearDayMatches(_ date: CivilDate, year: Int) -> Bool {
        if !rule.byMonth.isEmpty, !solarMonths.contains(date.month) { return false }
        if !rule.byWeekNumber.isEmpty {
            let (weekYear, week, weeksInYear) = Self.weekNumber(of: date, weekStart: rule.weekStart)
            guard weekYear == year, rule.byWeekNumber.contains(where: { $0 > 0 ? $0 == week : weeksInYear + 1 + $0 == week }) else {
                return false
            }
        } else if date.year != year {
            return false
        }
        if !rule.byYearDay.isEmpty {
            let dayOfYear = date.daysSinceEpoch - CivilDate(unchecked: date.year, 1, 1).daysSinceEpoch + 1
            let length = CivilDate.isLeapYear(date.year) ? 366 : 365
            guard rule.byYearDay.contains(where: { $0 > 0 ? $0 == dayOfYear : length + 1 + $0 == dayOfYear }) else { return false }
        }
        if !rule.byMonthDay.isEmpty, !monthDayMatches(date) { return false }
        if !rule.byDay.isEmpty {
            // Ordinals count within the month when BYMONTH is given, else within the year;
            // with BYWEEKNO they are meaningless and ignored.
            let scope: OrdinalScope = !rule.byWeekNumber.isEmpty ? .none : rule.byMonth.isEmpty ? .year : .month
            guard weekdayMatches(date, scope: scope) else { return false }
        }
        // Without BYDAY, BYMONTHDAY or BYYEARDAY, a BYWEEKNO rule repeats DTSTART's weekday.
        if !rule.byWeekNumber.isEmpty, rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byYearDay.isEmpty {
            return date.isoWeekday == startWeekday.rawValue
        }
        return true
    }

    private func monthDays(_ year: Int, _ month: Int) -> [CivilDate] {
        if !rule.byMonth.isEmpty, !solarMonths.contains(month) { return [] }
        if rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            return resolve(year: year, month: month, day: start.date.day).map { [$0] } ?? []
        }
        if rule.byDay.isEmpty && skipApplies {
            var days: [CivilDate] = []
            for day in rule.byMonthDay.sorted() {
                if day > 0, let resolved = resolve(year: year, month: month, day: day) { days.append(resolved) }
                if day < 0, let date = monthDay(year, month, day) { days.append(date) }
            }
            return dedupedSorted(days.filter { rule.byYearDay.isEmpty || yearDayOK($0) })
        }
        var days: [CivilDate] = []
        for day in 1...CivilDate.daysInMonth(year: year, month: month) {
            let date = CivilDate(unchecked: year, month, day)
            if !rule.byMonthDay.isEmpty, !monthDayMatches(date) { continue }
            if !rule.byDay.isEmpty, !weekdayMatches(date, scope: .month) { continue }
            if !rule.byYearDay.isEmpty, !yearDayOK(date) { continue }
            days.append(date)
        }
        return days
    }

    private func weekDays(_ weekStart: Int) -> [CivilDate] {
        var days: [CivilDate] = []
        let weekdays = rule.byDay.isEmpty ? [startWeekday] : rule.byDay.map(\.weekday)
        for offset in 0..<7 {
            let date = CivilDate(daysSinceEpoch: weekStart + offset)
            guard weekdays.contains(where: { $0.rawValue == date.isoWeekday }) else { continue }
            if !rule.byMonth.isEmpty, !solarMonths.contains(date.month) { continue }
            days.append(date)
        }
        return days
    }

    /// BYxxx parts as limits on a single day (DAILY and finer).
    private func dayMatches(_ date: CivilDate) -> Bool {
        if !rule.byMonth.isEmpty, !solarMonths.contains(date.month) { return false }
        if !rule.byYearDay.isEmpty, !yearDayOK(date) { return false }
        if !rule.byMonthDay.isEmpty, !monthDayMatches(date) { return false }
        if !rule.byDay.isEmpty, !rule.byDay.contains(where: { $0.weekday.rawValue == date.isoWeekday }) { return false }
        return true
    }

    private func yearDayOK(_ date: CivilDate) -> Bool {
        let dayOfYear = date.daysSinceEpoch - CivilDate(unchecked: date.year, 1, 1).daysSinceEpoch + 1
        let length = CivilDate.isLeapYear(date.year) ? 366 : 365
        return rule.byYearDay.contains { $0 > 0 ? $0 == dayOfYear : length + 1 + $0 == dayOfYear }
    }

    private func monthDayMatches(_ date: CivilDate) -> Bool {
        let length = CivilDate.daysInMonth(year: date.year, month: date.month)
        return rule.byMonthDay.contains { $0 > 0 ? $0 == date.day : length + 1 + $0 == date.day }
    }

    private enum OrdinalScope { case month, year, none }

    private func weekdayMatches(_ date: CivilDate, scope: OrdinalScope) -> Bool {
        rule.byDay.contains { entry in
            guard entry.weekday.rawValue == date.isoWeekday else { return false }
            guard let ordinal = entry.ordinal, scope != .none else { return true }
            let (position, total): (Int, Int)
            switch scope {
            case .month:
                position = date.day
                total = CivilDate.daysInMonth(year: date.year, month: date.month)
            case .year, .none:
                position = date.daysSinceEpoch - CivilDate(unchecked: date.year, 1, 1).daysSinceEpoch + 1
                total = CivilDate.isLeapYear(date.year) ? 366 : 365
            }
            return ordinal > 0 ? (position - 1) / 7 + 1 == ordinal : -((total - position) / 7 + 1) == ordinal
        }
    }

    private func monthDay(_ year: Int, _ month: Int, _ day: Int) -> CivilDate? {
        let length = CivilDate.daysInMonth(year: year, month: month)
        let resolved = day > 0 ? day : length + 1 + day
        return (1...length).contains(resolved) ? CivilDate(unchecked: year, month, resolved) : nil
    }

    /// SKIP (RFC 7529) applies only to rules that name their calendar with RSCALE.
    private var skipApplies: Bool { rule.scale != nil && rule.skip != .omit }

    /// A day that may not exist (31 April, 29 February): omitted, or moved by SKIP.
    private func resolve(year: Int, month: Int, day: Int) -> CivilDate? {
        let length = CivilDate.daysInMonth(year: year, month: month)
        if day <= length { return CivilDate(unchecked: year, month, day) }
        guard skipApplies else { return nil }
        switch rule.skip {
        case .omit: return nil
        case .backward: return CivilDate(unchecked: year, month, length)
        case .forward: return CivilDate(unchecked: year, month, length).adding(days: 1)
        }
    }

    private func dedupedSorted(_ days: [CivilDate]) -> [CivilDate] {
        Array(Set(days)).sorted()
    }

    // MARK: Sub-daily frequencies

    private func subDailyPeriod(_ step: Int) -> Candidates? {
        let unit: Int = switch rule.frequency {
        case .hourly: 3600
        case .minutely: 60
        default: 1
        }
        let base = start.secondsSinceEpoch - start.secondsSinceEpoch % unit
        let periodStart = CivilDateTime(secondsSinceEpoch: base + step * unit)
        guard periodStart.date.year <= 9999 else { return nil }
        guard dayMatches(periodStart.date) else { return Candidates.empty }
        if !rule.byHour.isEmpty, !rule.byHour.contains(periodStart.hour) { return Candidates.empty }
        if rule.frequency <= .minutely, !rule.byMinute.isEmpty, !rule.byMinute.contains(periodStart.minute) { return Candidates.empty }
        if rule.frequency == .secondly, !rule.bySecond.isEmpty, !rule.bySecond.contains(periodStart.second) { return Candidates.empty }
        let minutes = rule.frequency == .hourly ? (rule.byMinute.isEmpty ? [start.minute] : rule.byMinute.sorted()) : [periodStart.minute]
        let seconds = rule.frequency == .secondly ? [periodStart.second] : (rule.bySecond.isEmpty ? [start.second] : rule.bySecond.sorted())
        var times: [Int] = []
        for minute in minutes {
            for second in seconds { times.append(periodStart.hour * 3600 + minute * 60 + Swift.min(second, 59)) }
        }
        return Candidates(days: [periodStart.date], times: times, setPositions: rule.bySetPosition)
    }

    // MARK: The Chinese calendar (RFC 7529)

    private func lunarPeriod(_ step: Int) -> Candidates? {
        guard let lunarStart else { return Candidates.empty }
        var days: [CivilDate] = []
        switch rule.frequency {
        case .yearly:
            let year = lunarStart.year + step
            guard year <= 9000 else { return nil }
            let months: [RecurrenceRule.Month] = rule.byMonth.isEmpty
                ? [RecurrenceRule.Month(lunarStart.month, isLeap: lunarStart.isLeapMonth)] : rule.byMonth
            let monthDays = rule.byMonthDay.isEmpty ? [lunarStart.day] : rule.byMonthDay
            let calendarMonths = ChineseCalendar.months(inYear: year)
            for month in months {
                guard let resolved = lunarMonth(month, in: calendarMonths) else { continue }
                for day in monthDays { if let date = lunarDay(day, in: resolved, months: calendarMonths) { days.append(date) } }
            }
        case .monthly:
            // Count months through the calendar, leap months included.
            guard let month = lunarMonth(offset: step) else { return nil }
            let calendarMonths = ChineseCalendar.months(inYear: month.year)
            if !rule.byMonth.isEmpty, !rule.byMonth.contains(where: { $0.number == month.month && $0.isLeap == month.isLeapMonth }) {
                return Candidates.empty
            }
            let monthDays = rule.byMonthDay.isEmpty ? [lunarStart.day] : rule.byMonthDay
            for day in monthDays { if let date = lunarDay(day, in: month, months: calendarMonths) { days.append(date) } }
        default:
            return Candidates.empty
        }
        if !rule.byDay.isEmpty {
            days = days.filter { date in rule.byDay.contains { $0.weekday.rawValue == date.isoWeekday } }
        }
        return withTimes(dedupedSorted(days))
    }

    /// The month a BYMONTH entry names in a lunar year; a leap month the year lacks is skipped or
    /// moved by SKIP (BACKWARD: the regular month of that number, FORWARD: the month after it).
    private func lunarMonth(_ month: RecurrenceRule.Month, in months: [ChineseCalendar.Month]) -> ChineseCalendar.Month? {
        if let exact = months.first(where: { $0.month == month.number && $0.isLeapMonth == month.isLeap }) { return exact }
        guard month.isLeap else { return nil }
        switch rule.skip {
        case .omit: return nil
        case .backward: return months.first { $0.month == month.number && !$0.isLeapMonth }
        case .forward: return months.first { $0.month == month.number + 1 && !$0.isLeapMonth }
        }
    }

    /// A day of a lunar month; day 30 of a 29-day month is skipped or moved by SKIP.
    private func lunarDay(_ day: Int, in month: ChineseCalendar.Month, months: [ChineseCalendar.Month]) -> CivilDate? {
        let resolved = day > 0 ? day : month.length + 1 + day
        if (1...month.length).contains(resolved) { return month.firstDay.adding(days: resolved - 1) }
        guard resolved > month.length, skipApplies else { return nil }
        switch rule.skip {
        case .omit: return nil
        case .backward: return month.firstDay.adding(days: month.length - 1)
        case .forward: return month.firstDay.adding(days: month.length)
        }
    }

    /// The lunar month `offset` months after DTSTART's.
    private func lunarMonth(offset: Int) -> ChineseCalendar.Month? {
        guard let lunarStart else { return nil }
        var year = lunarStart.year
        var months = ChineseCalendar.months(inYear: year)
        guard var index = months.firstIndex(where: { $0.month == lunarStart.month && $0.isLeapMonth == lunarStart.isLeapMonth }) else {
            return nil
        }
        var remaining = offset
        while index + remaining >= months.count {
            remaining -= months.count - index
            year += 1
            guard year <= 9000 else { return nil }
            months = ChineseCalendar.months(inYear: year)
            index = 0
        }
        return months[index + remaining]
    }

    // MARK: Weeks

    /// The first day of the week (starting on `weekStart`) that contains `date`.
    static func weekStart(of date: CivilDate, weekStart: RecurrenceRule.Weekday) -> CivilDate {
        let back = (date.isoWeekday - weekStart.rawValue + 7) % 7
        return date.adding(days: -back)
    }

    /// The week-numbering year, week number and weeks in that year of a date: week 1 is the first
    /// week with at least four days in the year (RFC 5545, ISO 8601 with a chosen week start).
    static func weekNumber(of date: CivilDate, weekStart: RecurrenceRule.Weekday) -> (year: Int, week: Int, weeksInYear: Int) {
        func firstWeekStart(_ year: Int) -> Int {
            Self.weekStart(of: CivilDate(unchecked: year, 1, 4), weekStart: weekStart).daysSinceEpoch
        }
        let day = date.daysSinceEpoch
        var year = date.year
        if day < firstWeekStart(year) { year -= 1 } else if day >= firstWeekStart(year + 1) { year += 1 }
        let first = firstWeekStart(year)
        return (year, (day - first) / 7 + 1, (firstWeekStart(year + 1) - first) / 7)
    }
}
