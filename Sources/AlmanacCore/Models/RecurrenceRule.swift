import AlmanacICU

/// A recurrence rule (RFC 5545 §3.3.10, with RFC 7529's RSCALE and SKIP), typed: what every
/// format's repeats become (an iCalendar RRULE, a backup's "every year, lunar", a spreadsheet's
/// 每年). Its text form is the RRULE value; that is also its canonical JSON form.
public struct RecurrenceRule: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Frequency: String, Hashable, Sendable, CaseIterable, Comparable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY", weekly = "WEEKLY",
             monthly = "MONTHLY", yearly = "YEARLY"

        public var rank: Int { Frequency.allCases.firstIndex(of: self)! }
        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rank < rhs.rank }
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public enum Weekday: Int, Hashable, Sendable, CaseIterable {
        case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

        public static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        public var code: String { Weekday.codes[rawValue - 1] }
        public init?(code: Substring) {
            guard let index = Weekday.codes.firstIndex(of: String(code)) else { return nil }
            self.init(rawValue: index + 1)
        }

        /// From two bytes of a rule, in either case (`MO`, `mo`).
        init?(code bytes: ArraySlice<UInt8>) {
            guard bytes.count == 2 else { return nil }
            let first = ASCII.uppercased(bytes[bytes.startIndex])
            let second = ASCII.uppercased(bytes[bytes.startIndex + 1])
            guard let index = Weekday.codes.firstIndex(where: { code in
                let utf8 = code.utf8
                return utf8.first == first && utf8.last == second
            }) else { return nil }
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
    /// Parts this type has no field for (`X-NAME=value`, a later RFC's), kept as written and in
    /// order; they do not change the expansion.
    public var extensions: [Extension] = []
    /// The part names in the order the source wrote them (`BYDAY` before `COUNT`), so a rule read
    /// and written back reads as it did; parts it did not write follow in the usual order. Not
    /// part of the rule's meaning: two rules that say the same thing are equal.
    public var writtenOrder: [String] = []

    public struct Extension: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    @inlinable
    public init(frequency: Frequency, scale: String? = nil) {
        self.frequency = frequency
        self.scale = scale
    }

    /// Parses an RRULE value. Errors say which part is wrong and what it should look like.
    /// Read over UTF-8 bytes: the separators are ASCII, and names and keywords are compared
    /// uppercased (ASCII at once; a part with other letters through Unicode's uppercasing, as
    /// before), not walked a Character at a time.
    public init(parsing text: String) throws(RecurrenceError) {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        try Self.parseParts(Array(text.utf8)[...], into: &rule, frequency: &frequency)
        guard let frequency else { throw RecurrenceError(part: text, reason: "a FREQ part") }
        guard rule.count == nil || rule.until == nil else { throw RecurrenceError(part: text, reason: "COUNT or UNTIL, not both") }
        rule.frequency = frequency
        self = rule
    }

    private typealias Bytes = ArraySlice<UInt8>

    /// The parts of a rule (RFC 5545 §3.3.10, RFC 7529 §4.1).
    static let partNames = ["FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
                            "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP"]

    private static func parseParts(_ text: Bytes, into rule: inout RecurrenceRule,
                                   frequency: inout Frequency?) throws(RecurrenceError) {
        for part in text.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
            let partText = { String(decoding: part, as: UTF8.self) }
            // `NAME=VALUE`; an empty name or value is not a part ("FREQ=", "=DAILY").
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")),
                  equals > part.startIndex, equals + 1 < part.endIndex
            else { throw RecurrenceError(part: partText(), reason: "name=value") }
            // The value is everything after the first "=" ("A==B" is A and "=B").
            let name = upper(part[part.startIndex..<equals])
            let value = part[(equals + 1)...]
            guard !rule.writtenOrder.contains(name) else { throw RecurrenceError(part: partText(), reason: "each part only once") }
            rule.writtenOrder.append(name)
            func integers(_ range: ClosedRange<Int>, allowNegative: Bool = false) throws(RecurrenceError) -> [Int] {
                var result: [Int] = []
                for item in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                    guard let number = integer(item), range.contains(abs(number)), number != 0 || range.lowerBound == 0,
                          allowNegative || number >= 0
                    else { throw RecurrenceError(part: partText(), reason: "numbers in \(allowNegative ? "±" : "")\(range)") }
                    result.append(number)
                }
                return result
            }
            switch name {
            case "FREQ":
                guard let parsed = Frequency(rawValue: upper(value)) else {
                    throw RecurrenceError(part: partText(), reason: "YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY")
                }
                frequency = parsed
            case "INTERVAL":
                guard let number = integer(value), number >= 1 else { throw RecurrenceError(part: partText(), reason: "a positive number") }
                rule.interval = number
            case "COUNT":
                guard let number = integer(value), number >= 1 else { throw RecurrenceError(part: partText(), reason: "a positive number") }
                rule.count = number
            case "UNTIL":
                // Any form real files use: a DATE, a floating or UTC DATE-TIME.
                do { rule.until = try BasicDateTime.parse(String(decoding: value, as: UTF8.self), tzid: nil) } catch {
                    throw RecurrenceError(part: partText(), reason: "a date (20251231) or date-time (20251231T235959Z)")
                }
            case "BYSECOND": rule.bySecond = try integers(0...60)
            case "BYMINUTE": rule.byMinute = try integers(0...59)
            case "BYHOUR": rule.byHour = try integers(0...23)
            case "BYMONTHDAY": rule.byMonthDay = try integers(1...31, allowNegative: true)
            case "BYYEARDAY": rule.byYearDay = try integers(1...366, allowNegative: true)
            case "BYWEEKNO": rule.byWeekNumber = try integers(1...53, allowNegative: true)
            case "BYSETPOS": rule.bySetPosition = try integers(1...366, allowNegative: true)
            case "BYMONTH":
                for item in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                    let leap = item.last.map(ASCII.lowercased) == UInt8(ascii: "l")
                    guard let number = integer(leap ? item.dropLast() : item), (1...13).contains(number) else {
                        throw RecurrenceError(part: partText(), reason: "months 1…12, with L for a leap month (6L)")
                    }
                    rule.byMonth.append(Month(number, isLeap: leap))
                }
            case "BYDAY":
                for item in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                    // A weekday code is two ASCII letters; anything else in the item is the ordinal.
                    guard item.count >= 2, let weekday = Weekday(code: item.suffix(2)) else {
                        throw RecurrenceError(part: partText(), reason: "weekdays like MO, 1MO, -1FR")
                    }
                    let prefix = item.dropLast(2)
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let number = integer(prefix), number != 0, abs(number) <= 53 else {
                            throw RecurrenceError(part: partText(), reason: "weekdays like MO, 1MO, -1FR")
                        }
                        ordinal = number
                    }
                    rule.byDay.append(WeekdayNumber(weekday, ordinal: ordinal))
                }
            case "WKST":
                guard value.count == 2, let weekday = Weekday(code: value) else {
                    throw RecurrenceError(part: partText(), reason: "a weekday: MO…SU")
                }
                rule.weekStart = weekday
            case "RSCALE": rule.scale = upper(value)
            case "SKIP":
                guard let skip = Skip(rawValue: upper(value)) else {
                    throw RecurrenceError(part: partText(), reason: "OMIT, BACKWARD or FORWARD")
                }
                rule.skip = skip
            case _ where name.hasPrefix("X-"):
                // Extensions do not change the expansion; they are carried.
                rule.extensions.append(Extension(name: name, value: String(decoding: value, as: UTF8.self)))
            default:
                // A part no RFC names is a mistake (`UNTL=20191023`), and reading past it could
                // make a rule with an end into one without: the rule is refused, as libical and
                // recurring-ical-events refuse it.
                let meant = Spelling.nearest(to: name, among: Self.partNames).map { "; did you mean \($0)?" } ?? ""
                throw RecurrenceError(part: partText(), reason: "one of the parts RFC 5545 names" + meant)
            }
        }
    }

    /// A name or keyword uppercased: ASCII bytes directly, other text through Unicode's rules.
    private static func upper(_ bytes: Bytes) -> String {
        guard bytes.allSatisfy({ $0 < ASCII.firstNonASCII }) else { return String(decoding: bytes, as: UTF8.self).uppercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = ASCII.uppercased(byte)
            }
            return bytes.count
        }
    }

    /// A decimal integer as `Int(_:)` reads one: an optional sign, then ASCII digits, nil when it
    /// is not one or does not fit (a rule keeps `COUNT=99999999999`, as it did).
    private static func integer(_ bytes: Bytes) -> Int? {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        var value = 0
        while index < bytes.endIndex {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit))
            guard !overflow, !carry else { return nil }
            value = sum
            index += 1
        }
        // Int.min has no positive counterpart here; no rule's number is near it.
        return negative ? -value : value
    }

    /// The rule in RFC 5545 form: its parts in the order the source wrote them, then the others
    /// RSCALE first (as RFC 7529 writes it), FREQ, the ends, the BY parts from the largest unit.
    public var description: String {
        var parts: [String: String] = [:]
        func list(_ name: String, _ values: [Int]) { if !values.isEmpty { parts[name] = values.map(String.init).joined(separator: ",") } }
        let written = Set(writtenOrder)
        if let scale { parts["RSCALE"] = scale }
        parts["FREQ"] = frequency.rawValue
        if let until { parts["UNTIL"] = BasicDateTime.format(until).text }
        if let count { parts["COUNT"] = String(count) }
        if interval != 1 || written.contains("INTERVAL") { parts["INTERVAL"] = String(interval) }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byMonth.isEmpty { parts["BYMONTH"] = byMonth.map { "\($0.number)\($0.isLeap ? "L" : "")" }.joined(separator: ",") }
        list("BYWEEKNO", byWeekNumber)
        list("BYYEARDAY", byYearDay)
        list("BYMONTHDAY", byMonthDay)
        if !byDay.isEmpty { parts["BYDAY"] = byDay.map { ($0.ordinal.map(String.init) ?? "") + $0.weekday.code }.joined(separator: ",") }
        list("BYSETPOS", bySetPosition)
        if weekStart != .monday || written.contains("WKST") { parts["WKST"] = weekStart.code }
        if skip != .omit || written.contains("SKIP") { parts["SKIP"] = skip.rawValue }
        for part in extensions { parts[part.name] = part.value }
        var result: [String] = []
        for name in writtenOrder + Self.partOrder + extensions.map(\.name) {
            if let value = parts.removeValue(forKey: name) { result.append(name + "=" + value) }
        }
        return result.joined(separator: ";")
    }

    static let partOrder = ["RSCALE", "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTH", "BYWEEKNO",
                            "BYYEARDAY", "BYMONTHDAY", "BYDAY", "BYSETPOS", "WKST", "SKIP"]

    public static func == (lhs: RecurrenceRule, rhs: RecurrenceRule) -> Bool {
        lhs.frequency == rhs.frequency && lhs.interval == rhs.interval && lhs.count == rhs.count && lhs.until == rhs.until
            && lhs.bySecond == rhs.bySecond && lhs.byMinute == rhs.byMinute && lhs.byHour == rhs.byHour && lhs.byDay == rhs.byDay
            && lhs.byMonthDay == rhs.byMonthDay && lhs.byYearDay == rhs.byYearDay && lhs.byWeekNumber == rhs.byWeekNumber
            && lhs.byMonth == rhs.byMonth && lhs.bySetPosition == rhs.bySetPosition && lhs.weekStart == rhs.weekStart
            && lhs.scale == rhs.scale && lhs.skip == rhs.skip && lhs.extensions == rhs.extensions
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(frequency)
        hasher.combine(interval)
        hasher.combine(count)
        hasher.combine(until)
        hasher.combine(byDay)
        hasher.combine(byMonthDay)
        hasher.combine(byMonth)
        hasher.combine(scale)
        hasher.combine(skip)
    }

    /// Whether the rule ends by itself (COUNT or UNTIL).
    public var isBounded: Bool { count != nil || until != nil }

    /// Whether the rule counts in the Chinese lunar calendar (RFC 7529 `RSCALE=CHINESE`).
    public var isLunar: Bool { scale == "CHINESE" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a repeat rule: \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A recurrence rule that cannot be read: the offending part and what it should look like.
public struct RecurrenceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var part: String
    public var reason: String
    public var description: String { "\(part): expected \(reason)" }
}
