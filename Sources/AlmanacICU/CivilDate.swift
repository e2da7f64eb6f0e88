/// A calendar day in the proleptic Gregorian calendar, with no time and no time zone: a birthday,
/// an all-day event, a deadline. Never shifts when the reader is in another zone.
public struct CivilDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    // Stored compactly: calendars hold millions of these.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// A valid date, or an error naming the impossible one ("2025-02-30").
    public init(year: Int, month: Int, day: Int) throws(ICUError) {
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
              (-9999...9999).contains(year)
        else {
            throw ICUError(.invalidDate, subject: CivilDate.isoText(year, month, day))
        }
        self.init(unchecked: year, month, day)
    }

    /// A date the caller knows is valid (month 1…12, day within the month), without the check:
    /// for loops over days that are valid by construction.
    public init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.storedYear = Int32(truncatingIfNeeded: year)
        self.storedMonth = UInt8(truncatingIfNeeded: month)
        self.storedDay = UInt8(truncatingIfNeeded: day)
    }

    /// Parses `YYYY-MM-DD` or the iCalendar form `YYYYMMDD`.
    public init(iso text: some StringProtocol) throws(ICUError) {
        // Over the bytes (a date fits in a string stored inline: no allocation).
        let parts = String(text).withByteView(Digits.isoDate)
        guard let (year, month, day) = parts else { throw ICUError(.invalidDate, subject: String(text)) }
        try self.init(year: year, month: month, day: day)
    }


    /// The day `days` after 1970-01-01 (negative before).
    public init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(unchecked: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let days = daysSinceEpoch
        return ((days % 7 + 7 + 3) % 7) + 1  // 1970-01-01 was a Thursday
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: CivilDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    /// The same day and month `years` later; 29 February becomes 28 February in common years.
    public func adding(years: Int) -> CivilDate {
        let target = year + years
        return CivilDate(unchecked: target, month, min(day, CivilDate.daysInMonth(year: target, month: month)))
    }

    public static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        case 1...12: 31
        default: 0
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String { CivilDate.isoText(year, month, day) }

    /// `YYYYMMDD`, as iCalendar writes DATE values.
    public var basicISO: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2)
    }

    static func isoText(_ year: Int, _ month: Int, _ day: Int) -> String {
        isoText(year, month, day, time: nil)
    }

    /// `YYYY-MM-DD`, and `THH:MM:SS` after it with a time.
    static func isoText(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)?) -> String {
        Digits.isoText(year, month, day, time: time)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(iso: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a date (YYYY-MM-DD)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A wall-clock date and time with no zone attached: what a clock on the wall shows.
public struct CivilDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CivilDate
    private let storedHour: UInt8
    private let storedMinute: UInt8
    private let storedSecond: UInt8

    public var hour: Int { Int(storedHour) }
    public var minute: Int { Int(storedMinute) }
    public var second: Int { Int(storedSecond) }

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) throws(ICUError) {
        // 60 is a leap second; iCalendar allows it and it is read as :59 + 1 s by callers.
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            throw ICUError(.invalidDate, subject: "\(date)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))")
        }
        self.init(unchecked: date, hour, minute, second)
    }

    /// A time the caller knows is valid (hour 0…23, minute and second 0…59), without the check.
    public init(unchecked date: CivilDate, _ hour: Int, _ minute: Int, _ second: Int) {
        self.date = date
        self.storedHour = UInt8(truncatingIfNeeded: hour)
        self.storedMinute = UInt8(truncatingIfNeeded: minute)
        self.storedSecond = UInt8(truncatingIfNeeded: second)
    }

    /// Seconds since 1970-01-01T00:00:00 on the same wall clock (as if the zone were UTC).
    public var secondsSinceEpoch: Int {
        date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
    }

    public init(secondsSinceEpoch seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let rest = seconds - days * 86_400
        self.init(unchecked: CivilDate(daysSinceEpoch: days), rest / 3600, rest % 3600 / 60, rest % 60)
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        CivilDate.isoText(date.year, date.month, date.day, time: (hour, minute, second))
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        (lhs.date, lhs.hour, lhs.minute, lhs.second) < (rhs.date, rhs.hour, rhs.minute, rhs.second)
    }
}

/// The decimal digits of `value`, with zeros in front up to `width` (`pad(7, 2)` is `07`).
public func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
