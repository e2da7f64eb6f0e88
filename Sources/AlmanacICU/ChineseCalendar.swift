internal import CICUShim

/// A date in the Chinese lunisolar calendar (农历 / 農曆).
public struct LunarDate: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The Gregorian year in which this lunar year began: 2027 for 丁未年, which starts 2027-02-06.
    public let year: Int
    /// 1…12; a leap month repeats the number of the month before it.
    public let month: Int
    /// A leap (intercalary) month, 閏月.
    public let isLeapMonth: Bool
    /// 1…30.
    public let day: Int

    /// A lunar date; not checked against the calendar until it is converted (`ChineseCalendar.gregorianDate`).
    public init(year: Int, month: Int, isLeapMonth: Bool = false, day: Int) {
        self.year = year
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
    }

    /// Reads what `description` writes: `2027-01-01`, and `2025-06L-01` (or `06l`) for a day of a
    /// leap month, as RFC 7529 writes leap months. The month must be 1…12 and the day 1…30; whether
    /// the date exists in that year is checked when it is converted (`ChineseCalendar.gregorianDate`).
    public init(iso text: some StringProtocol) throws(ICUError) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let day = Int(parts[2]) else {
            throw ICUError(.invalidDate, subject: String(text))
        }
        let leap = parts[1].uppercased().hasSuffix("L")
        guard let month = Int(leap ? parts[1].dropLast() : parts[1]), (1...12).contains(month), (1...30).contains(day) else {
            throw ICUError(.invalidDate, subject: String(text))
        }
        self.init(year: year, month: month, isLeapMonth: leap, day: day)
    }

    public static func < (lhs: LunarDate, rhs: LunarDate) -> Bool {
        (lhs.year, lhs.month, lhs.isLeapMonth ? 1 : 0, lhs.day) < (rhs.year, rhs.month, rhs.isLeapMonth ? 1 : 0, rhs.day)
    }

    /// "2027-01-01", with an L after a leap month ("2023-02L-01"), as RFC 7529 writes leap months.
    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + (isLeapMonth ? "L" : "") + "-" + pad(day, 2)
    }

    // MARK: Names

    /// The month's name: 正月, 閏六月 / 闰六月, 冬月, 臘月 / 腊月.
    public func monthName(_ script: ChineseScript = .traditional) -> String {
        (isLeapMonth ? (script == .traditional ? "閏" : "闰") : "") + LunarNames.month(month, script)
    }

    /// The day's name: 初一, 十五, 廿三, 三十.
    public var dayName: String { LunarNames.day(day) }

    /// The year's sexagenary (干支) name: 丁未年.
    public var yearName: String {
        LunarNames.stemBranch(year) + "年"
    }

    /// The zodiac animal of the year: 羊, 龍 / 龙.
    public func zodiac(_ script: ChineseScript = .traditional) -> String { LunarNames.zodiac(year, script) }

    /// The written form: 正月初一, or 丁未年正月初一 with the year.
    public func written(_ script: ChineseScript = .traditional, includingYear: Bool = false) -> String {
        (includingYear ? yearName : "") + monthName(script) + dayName
    }
}

/// The two ways of writing Chinese; names and conversions use the one the reader expects.
public enum ChineseScript: String, Sendable, Codable, CaseIterable {
    case simplified = "Hans"
    case traditional = "Hant"

    /// Simplified for zh-Hans (zh-CN, zh-SG); Traditional for zh-Hant and for readers of other
    /// languages (calendars print lunar names in Traditional characters by default).
    public init(locale: LocaleID) {
        self = locale.language == "zh" && !locale.usesTraditionalChinese ? .simplified : .traditional
    }
}

/// The Chinese lunisolar calendar, as published.
///
/// Lunar years 1900–2099 (Gregorian 1900-01-31 to 2100-01-20) come from a table generated from
/// lunar-python and checked day by day against the Hong Kong Observatory's table in the tests. ICU 72
/// is wrong on 417 of those days (ARCHITECTURE.md), so it is used only outside that range.
///
/// Where the two sources disagree (one month each in 1933, 1954, 1978 and 2057) the table follows
/// the new-moon times of modern ephemerides: the new moons of 1933-07-23 00:03, 1954-11-25 20:30 and
/// 1978-09-03 00:08 (China Standard Time) put those months' first days on those dates. The
/// 2057-09-28 new moon falls seconds before midnight; the table follows Calendrical Calculations
/// (errata) and .NET in starting the ninth month on 09-29, and the Hong Kong Observatory's own
/// footnote marks its 09-28 as uncertain.
public enum ChineseCalendar {
    /// Where a conversion's answer came from.
    public enum Source: String, Sendable {
        /// The published calendar (the table).
        case table
        /// ICU's astronomical computation, outside the table's range.
        case icu
    }

    /// A month of a lunar year.
    public struct Month: Hashable, Sendable {
        public let year: Int
        public let month: Int
        public let isLeapMonth: Bool
        public let firstDay: CivilDate
        public let length: Int
    }

    /// The Gregorian days the table covers.
    public static var tableRange: ClosedRange<CivilDate> {
        let last = months[months.count - 1]
        return CivilDate(daysSinceEpoch: months[0].start)...last.firstDay.adding(days: last.length - 1)
    }

    /// The lunar date of a Gregorian day.
    public static func lunarDate(for date: CivilDate) -> LunarDate {
        lunarDateAndSource(for: date).date
    }

    /// The lunar date of a Gregorian day and where the answer came from.
    public static func lunarDateAndSource(for date: CivilDate) -> (date: LunarDate, source: Source) {
        let day = date.daysSinceEpoch
        if let index = monthIndex(containing: day) {
            let entry = months[index]
            return (LunarDate(year: entry.year, month: entry.month, isLeapMonth: entry.leap, day: day - entry.start + 1), .table)
        }
        return (icuLunarDate(for: date), .icu)
    }

    /// The Gregorian day of a lunar date; throws when the date does not exist (a leap month in a
    /// year without it, day 30 of a 29-day month).
    public static func gregorianDate(for lunar: LunarDate) throws(ICUError) -> CivilDate {
        guard (1...12).contains(lunar.month), (1...30).contains(lunar.day) else {
            throw ICUError(.invalidDate, subject: lunar.description)
        }
        if let months = monthsByYear[lunar.year] {
            guard let month = months.first(where: { $0.month == lunar.month && $0.leap == lunar.isLeapMonth }),
                  lunar.day <= month.length
            else { throw ICUError(.invalidDate, subject: lunar.description) }
            return CivilDate(daysSinceEpoch: month.start + lunar.day - 1)
        }
        return try icuGregorianDate(for: lunar)
    }

    /// The months of a lunar year in order, leap month included.
    public static func months(inYear year: Int) -> [Month] {
        if let months = monthsByYear[year] {
            return months.map {
                Month(year: year, month: $0.month, isLeapMonth: $0.leap, firstDay: CivilDate(daysSinceEpoch: $0.start), length: $0.length)
            }
        }
        return icuMonths(inYear: year)
    }

    /// The leap month's number in a lunar year, if it has one (2023: 2, 閏二月).
    public static func leapMonth(inYear year: Int) -> Int? {
        months(inYear: year).first(where: \.isLeapMonth)?.month
    }

    /// The length (29 or 30) of a month, or nil when the year has no such month.
    public static func length(ofMonth month: Int, isLeapMonth: Bool = false, inYear year: Int) -> Int? {
        months(inYear: year).first { $0.month == month && $0.isLeapMonth == isLeapMonth }?.length
    }

    // MARK: The table

    struct Entry {
        let start: Int  // days since 1970-01-01 of the month's first day
        let year: Int
        let month: Int
        let leap: Bool
        let length: Int
        var firstDay: CivilDate { CivilDate(daysSinceEpoch: start) }
    }

    static let months: [Entry] = {
        var result: [Entry] = []
        result.reserveCapacity(ChineseCalendarTable.years.count * 13)
        let first = ChineseCalendarTable.firstNewYear
        var start = CivilDate(unchecked: first.year, first.month, first.day).daysSinceEpoch
        for (offset, packed) in ChineseCalendarTable.years.enumerated() {
            let year = ChineseCalendarTable.firstYear + offset
            let leapMonth = Int(packed >> 13)
            var month = 1
            var leap = false
            for index in 0..<(leapMonth == 0 ? 12 : 13) {
                let length = packed >> UInt32(index) & 1 == 1 ? 30 : 29
                result.append(Entry(start: start, year: year, month: month, leap: leap, length: length))
                start += length
                if leapMonth == month && !leap {
                    leap = true
                } else {
                    leap = false
                    month += 1
                }
            }
        }
        return result
    }()

    static let monthsByYear: [Int: [Entry]] = Dictionary(grouping: months, by: \.year)

    static func monthIndex(containing day: Int) -> Int? {
        guard let first = months.first, let last = months.last, day >= first.start, day < last.start + last.length
        else { return nil }
        var low = 0
        var high = months.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if months[mid].start <= day { low = mid } else { high = mid - 1 }
        }
        return low
    }

    // MARK: ICU, outside the table

    // ICU numbers Chinese years from 2637 BCE.
    private static let icuYearOffset = 2637
    private static let icuLocale = "zh@calendar=chinese"

    static func icuLunarDate(for date: CivilDate) -> LunarDate {
        var fields = AlmCalendarFields()
        var status: Int32 = 0
        let millis = Double(date.daysSinceEpoch) * 86_400_000
        _ = "UTC".withUTF16Unchecked { zone, count in
            alm_calendar_fields(icuLocale, zone, count, millis, &fields, &status)
        }
        return LunarDate(year: Int(fields.extendedYear) - icuYearOffset, month: Int(fields.month),
                         isLeapMonth: fields.isLeapMonth != 0, day: Int(fields.day))
    }

    static func icuGregorianDate(for lunar: LunarDate) throws(ICUError) -> CivilDate {
        var fields = AlmCalendarFields()
        fields.extendedYear = Int32(clamping: lunar.year + icuYearOffset)
        fields.month = Int32(lunar.month)
        fields.isLeapMonth = lunar.isLeapMonth ? 1 : 0
        fields.day = Int32(lunar.day)
        var status: Int32 = 0
        let millis = "UTC".withUTF16Unchecked { zone, count in
            alm_calendar_millis(icuLocale, zone, count, &fields, 1, &status)
        }
        try check(status, .invalidDate, subject: lunar.description)
        let date = CivilDate(daysSinceEpoch: Int((millis / 86_400_000).rounded(.down)))
        // ICU moves a leap month that does not exist to the regular one; refuse instead.
        guard icuLunarDate(for: date) == lunar else { throw ICUError(.invalidDate, subject: lunar.description) }
        return date
    }

    /// Years ICU computed, kept: each costs dozens of astronomical calculations (a millisecond),
    /// and a rule expanded over centuries outside the table asks for the same years again.
    private static let icuYears = Locked<[Int: [Month]]>([:])

    static func icuMonths(inYear year: Int) -> [Month] {
        if let known = icuYears.withLock({ $0[year] }) { return known }
        let months = computeICUMonths(inYear: year)
        icuYears.withLock { $0[year] = months }
        return months
    }

    private static func computeICUMonths(inYear year: Int) -> [Month] {
        guard let newYear = try? icuGregorianDate(for: LunarDate(year: year, month: 1, day: 1)) else { return [] }
        var result: [Month] = []
        var day = newYear
        while true {
            let lunar = icuLunarDate(for: day)
            guard lunar.year == year, lunar.day == 1 else { break }
            // Months are 29 or 30 days: the next month starts on day 30 or day 31 from this one.
            let length = icuLunarDate(for: day.adding(days: 29)).day == 1 ? 29 : 30
            result.append(Month(year: year, month: lunar.month, isLeapMonth: lunar.isLeapMonth, firstDay: day, length: length))
            day = day.adding(days: length)
        }
        return result
    }
}

enum LunarNames {
    private static let numerals = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
    private static let stems = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]
    private static let branches = ["子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥"]
    private static let animalsHant = ["鼠", "牛", "虎", "兔", "龍", "蛇", "馬", "羊", "猴", "雞", "狗", "豬"]
    private static let animalsHans = ["鼠", "牛", "虎", "兔", "龙", "蛇", "马", "羊", "猴", "鸡", "狗", "猪"]

    static func month(_ month: Int, _ script: ChineseScript) -> String {
        switch month {
        case 1: "正月"
        case 11: "冬月"
        case 12: script == .traditional ? "臘月" : "腊月"
        case 2...10: numerals[month] + "月"
        default: String(month) + "月"
        }
    }

    static func day(_ day: Int) -> String {
        switch day {
        case 1...10: "初" + numerals[day]
        case 11...19: "十" + numerals[day - 10]
        case 20: "二十"
        case 21...29: "廿" + numerals[day - 20]
        case 30: "三十"
        default: String(day)
        }
    }

    /// 1984 was 甲子, the start of a cycle.
    static func stemBranch(_ year: Int) -> String {
        let offset = ((year - 1984) % 60 + 60) % 60
        return stems[offset % 10] + branches[offset % 12]
    }

    static func zodiac(_ year: Int, _ script: ChineseScript) -> String {
        let offset = ((year - 1984) % 12 + 12) % 12
        return script == .traditional ? animalsHant[offset] : animalsHans[offset]
    }
}

/// A lunar month and day as people write them, without a year: 八月十五, 閏六月初十, 腊月廿九,
/// 十二月三十, 臘月最後一天 (the last day, -1, as RFC 7529 writes it).
public struct LunarMonthDay: Hashable, Sendable {
    public var month: Int
    public var isLeapMonth: Bool
    /// 1…30, or -1 for the month's last day.
    public var day: Int

    public init(month: Int, isLeapMonth: Bool = false, day: Int) {
        self.month = month
        self.isLeapMonth = isLeapMonth
        self.day = day
    }

    /// The words for a month's last day.
    public static func lastDay(_ script: ChineseScript) -> String { script == .traditional ? "最後一天" : "最后一天" }

    /// 八月十五; 臘月最後一天 for the last day.
    public func written(_ script: ChineseScript = .traditional) -> String {
        let month = (isLeapMonth ? (script == .traditional ? "閏" : "闰") : "") + LunarNames.month(self.month, script)
        return month + (day == -1 ? Self.lastDay(script) : LunarNames.day(day))
    }

    /// Reads what `written` writes in either script, and the other common month names (一月,
    /// 十一月, 十二月).
    public init?(parsing text: String) {
        var rest = text.drop(while: \.isWhitespace)
        while rest.last?.isWhitespace == true { rest = rest.dropLast() }
        var leap = false
        if rest.hasPrefix("閏") || rest.hasPrefix("闰") {
            leap = true
            rest = rest.dropFirst()
        }
        guard let (month, afterMonth) = Self.months.lazy.compactMap({ name, number in
            rest.hasPrefix(name) ? (number, rest.dropFirst(name.count)) : nil
        }).first else { return nil }
        let dayText = String(afterMonth)
        let day: Int
        if dayText == Self.lastDay(.traditional) || dayText == Self.lastDay(.simplified) {
            day = -1
        } else if let number = Self.days[dayText] {
            day = number
        } else {
            return nil
        }
        self.init(month: month, isLeapMonth: leap, day: day)
    }

    /// Longest names first, so 十一月 is not read as 十月.
    private static let months: [(String, Int)] = {
        var names: [(String, Int)] = [("正月", 1), ("一月", 1), ("十一月", 11), ("冬月", 11), ("十二月", 12), ("臘月", 12), ("腊月", 12)]
        for month in 2...10 { names.append((LunarNames.month(month, .traditional), month)) }
        return names.sorted { $0.0.count > $1.0.count }
    }()

    private static let days: [String: Int] = {
        var days: [String: Int] = [:]
        for day in 1...30 { days[LunarNames.day(day)] = day }
        days["廿"] = 20
        days["卅"] = 30
        return days
    }()
}
