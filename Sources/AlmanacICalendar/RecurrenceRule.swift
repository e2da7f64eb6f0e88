public import AlmanacCore
import AlmanacICU

/// A parsed RRULE (RFC 5545 §3.3.10, with RFC 7529's RSCALE and SKIP).
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    public enum Frequency: String, Hashable, Sendable, CaseIterable, Comparable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY", weekly = "WEEKLY",
             monthly = "MONTHLY", yearly = "YEARLY"

        var rank: Int { Frequency.allCases.firstIndex(of: self)! }
        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rank < rhs.rank }
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public enum Weekday: Int, Hashable, Sendable, CaseIterable {
        case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

        static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var code: String { Weekday.codes[rawValue - 1] }
        init?(code: Substring) {
            guard let index = Weekday.codes.firstIndex(of: String(code)) else { return nil }
            self.init(rawValue: index + 1)
        }
    }

    /// A BYDAY entry: a weekday, optionally the nth (or nth-from-last when negative) in the period.
    public struct WeekdayNumber: Hashable, Sendable {
        public var weekday: Weekday
        public var ordinal: Int?
        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// A BYMONTH entry: a month number, and whether it names the leap month (`6L`, RFC 7529).
    public struct Month: Hashable, Sendable {
        public var number: Int
        public var isLeap: Bool
        public init(_ number: Int, isLeap: Bool = false) {
            self.number = number
            self.isLeap = isLeap
        }
    }

    /// What to do with an occurrence that falls on a day the month does not have (RFC 7529).
    public enum Skip: String, Hashable, Sendable {
        case omit = "OMIT", backward = "BACKWARD", forward = "FORWARD"
    }

    public var frequency: Frequency
    public var interval: Int = 1
    public var count: Int?
    public var until: DateValue?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayNumber] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNumber: [Int] = []
    public var byMonth: [Month] = []
    public var bySetPosition: [Int] = []
    public var weekStart: Weekday = .monday
    /// The calendar the rule counts in (`CHINESE`, `GREGORIAN`); nil means Gregorian.
    public var scale: String?
    public var skip: Skip = .omit

    public init(frequency: Frequency) { self.frequency = frequency }

    /// Parses an RRULE value. Errors say which part is wrong and what it should look like.
    public init(parsing text: String) throws(RecurrenceError) {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen = Set<String>()
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { throw RecurrenceError(part: String(part), reason: "name=value") }
            let name = pieces[0].uppercased()
            let value = pieces[1]
            guard seen.insert(name).inserted else { throw RecurrenceError(part: String(part), reason: "each part only once") }
            func integers(_ range: ClosedRange<Int>, allowNegative: Bool = false) throws(RecurrenceError) -> [Int] {
                var result: [Int] = []
                for item in value.split(separator: ",") {
                    guard let number = Int(item), range.contains(abs(number)), number != 0 || range.lowerBound == 0,
                          allowNegative || number >= 0
                    else { throw RecurrenceError(part: String(part), reason: "numbers in \(allowNegative ? "±" : "")\(range)") }
                    result.append(number)
                }
                return result
            }
            switch name {
            case "FREQ":
                guard let parsed = Frequency(rawValue: value.uppercased()) else {
                    throw RecurrenceError(part: String(part), reason: "YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY")
                }
                frequency = parsed
            case "INTERVAL":
                guard let number = Int(value), number >= 1 else { throw RecurrenceError(part: String(part), reason: "a positive number") }
                rule.interval = number
            case "COUNT":
                guard let number = Int(value), number >= 1 else { throw RecurrenceError(part: String(part), reason: "a positive number") }
                rule.count = number
            case "UNTIL":
                // Any form real files use: a DATE, a floating or UTC DATE-TIME.
                do { rule.until = try ICalDateTime.parse(String(value), tzid: nil) } catch {
                    throw RecurrenceError(part: String(part), reason: "a date (20251231) or date-time (20251231T235959Z)")
                }
            case "BYSECOND": rule.bySecond = try integers(0...60)
            case "BYMINUTE": rule.byMinute = try integers(0...59)
            case "BYHOUR": rule.byHour = try integers(0...23)
            case "BYMONTHDAY": rule.byMonthDay = try integers(1...31, allowNegative: true)
            case "BYYEARDAY": rule.byYearDay = try integers(1...366, allowNegative: true)
            case "BYWEEKNO": rule.byWeekNumber = try integers(1...53, allowNegative: true)
            case "BYSETPOS": rule.bySetPosition = try integers(1...366, allowNegative: true)
            case "BYMONTH":
                for item in value.split(separator: ",") {
                    let leap = item.uppercased().hasSuffix("L")
                    guard let number = Int(leap ? item.dropLast() : item), (1...13).contains(number) else {
                        throw RecurrenceError(part: String(part), reason: "months 1…12, with L for a leap month (6L)")
                    }
                    rule.byMonth.append(Month(number, isLeap: leap))
                }
            case "BYDAY":
                for item in value.split(separator: ",") {
                    let upper = item.uppercased()
                    guard upper.count >= 2, let weekday = Weekday(code: upper.suffix(2)) else {
                        throw RecurrenceError(part: String(part), reason: "weekdays like MO, 1MO, -1FR")
                    }
                    let prefix = upper.dropLast(2)
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let number = Int(prefix), number != 0, abs(number) <= 53 else {
                            throw RecurrenceError(part: String(part), reason: "weekdays like MO, 1MO, -1FR")
                        }
                        ordinal = number
                    }
                    rule.byDay.append(WeekdayNumber(weekday, ordinal: ordinal))
                }
            case "WKST":
                guard let weekday = Weekday(code: Substring(value.uppercased())) else {
                    throw RecurrenceError(part: String(part), reason: "a weekday: MO…SU")
                }
                rule.weekStart = weekday
            case "RSCALE": rule.scale = value.uppercased()
            case "SKIP":
                guard let skip = Skip(rawValue: value.uppercased()) else {
                    throw RecurrenceError(part: String(part), reason: "OMIT, BACKWARD or FORWARD")
                }
                rule.skip = skip
            default:
                // Unknown parts (X- extensions) do not change the expansion.
                continue
            }
        }
        guard let frequency else { throw RecurrenceError(part: text, reason: "a FREQ part") }
        guard rule.count == nil || rule.until == nil else { throw RecurrenceError(part: text, reason: "COUNT or UNTIL, not both") }
        rule.frequency = frequency
        self = rule
    }

    /// The rule in RFC 5545 form, FREQ first (RSCALE first when present, as RFC 7529 writes it).
    public var description: String {
        var parts: [String] = []
        if let scale { parts.append("RSCALE=\(scale)") }
        parts.append("FREQ=\(frequency.rawValue)")
        if let until { parts.append("UNTIL=\(ICalDateTime.format(until).text)") }
        if let count { parts.append("COUNT=\(count)") }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ name: String, _ values: [Int]) { if !values.isEmpty { parts.append("\(name)=" + values.map(String.init).joined(separator: ",")) } }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + $0.weekday.code }.joined(separator: ","))
        }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNumber)
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map { "\($0.number)\($0.isLeap ? "L" : "")" }.joined(separator: ",")) }
        list("BYSETPOS", bySetPosition)
        if weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
        if skip != .omit { parts.append("SKIP=\(skip.rawValue)") }
        return parts.joined(separator: ";")
    }

    /// Whether the rule ends by itself (COUNT or UNTIL).
    public var isBounded: Bool { count != nil || until != nil }
}

/// A recurrence rule that cannot be read: the offending part and what it should look like.
public struct RecurrenceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var part: String
    public var reason: String
    public var description: String { "\(part): expected \(reason)" }
}
