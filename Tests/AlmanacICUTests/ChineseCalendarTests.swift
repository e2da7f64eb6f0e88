@testable import AlmanacICU
import Testing

/// The table (from lunar-python) is checked against an independent source: `Fixtures/lunar-hko.txt`,
/// the Hong Kong Observatory's months as `lunardate` ships them.
@Suite struct ChineseCalendarTests {
    struct ReferenceMonth {
        let firstDay: Int
        let lunar: (year: Int, month: Int, leap: Bool)
        let length: Int
    }

    static func referenceMonths() throws -> [ReferenceMonth] {
        let text = String(decoding: try fixture("lunar-hko.txt"), as: UTF8.self)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: " ")
            let month = fields[2]
            return ReferenceMonth(
                firstDay: try CivilDate(iso: fields[0]).daysSinceEpoch,
                lunar: (Int(fields[1])!, Int(month.filter(\.isNumber))!, month.hasSuffix("L")),
                length: Int(fields[3])!)
        }
    }

    /// Where lunar-python (the table) and the Hong Kong Observatory's table differ, with what the
    /// table says and why it is right (ChineseCalendar's documentation has the new-moon times).
    static let disputed: [(from: String, through: String, firstLunar: LunarDate)] = [
        ("1933-07-22", "1933-07-22", LunarDate(year: 1933, month: 5, isLeapMonth: true, day: 30)),
        ("1933-07-23", "1933-08-20", LunarDate(year: 1933, month: 6, day: 1)),
        ("1954-11-25", "1954-12-24", LunarDate(year: 1954, month: 11, day: 1)),
        ("1978-09-02", "1978-09-02", LunarDate(year: 1978, month: 7, day: 30)),
        ("1978-09-03", "1978-10-01", LunarDate(year: 1978, month: 8, day: 1)),
        ("2057-09-28", "2057-09-28", LunarDate(year: 2057, month: 8, day: 30)),
        ("2057-09-29", "2057-10-27", LunarDate(year: 2057, month: 9, day: 1)),
    ]

    @Test func everyDayFrom1901To2099MatchesThePublishedCalendar() throws {
        let months = try Self.referenceMonths()
        let first = try CivilDate(year: 1901, month: 1, day: 1).daysSinceEpoch
        let last = try CivilDate(year: 2099, month: 12, day: 31).daysSinceEpoch
        var disputedDays: [Int: LunarDate] = [:]
        for range in Self.disputed {
            let from = try CivilDate(iso: range.from).daysSinceEpoch
            let through = try CivilDate(iso: range.through).daysSinceEpoch
            for day in from...through {
                let base = range.firstLunar
                disputedDays[day] = LunarDate(year: base.year, month: base.month, isLeapMonth: base.isLeapMonth,
                                              day: base.day + day - from)
            }
        }
        var index = months.firstIndex { $0.firstDay + $0.length > first }!
        var mismatches: [String] = []
        var checked = 0
        for day in first...last {
            while months[index].firstDay + months[index].length <= day { index += 1 }
            let reference = months[index]
            let expected = disputedDays[day] ?? LunarDate(
                year: reference.lunar.year, month: reference.lunar.month, isLeapMonth: reference.lunar.leap,
                day: day - reference.firstDay + 1)
            let date = CivilDate(daysSinceEpoch: day)
            let (actual, source) = ChineseCalendar.lunarDateAndSource(for: date)
            if actual != expected || source != .table {
                mismatches.append("\(date): \(actual) (\(source)), expected \(expected)")
            }
            // And back again.
            if (try? ChineseCalendar.gregorianDate(for: actual)) != date {
                mismatches.append("\(actual) does not convert back to \(date)")
            }
            checked += 1
        }
        #expect(checked == 72_684)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // The disputed months are real disagreements with the reference, not typos in this test.
        #expect(disputedDays.count == 120)
    }

    @Test func springFestival2027() throws {
        // ARCHITECTURE.md fact 3: 2027-02-06 is 正月初一; ICU 72 alone says 臘月三十.
        let date = try CivilDate(year: 2027, month: 2, day: 6)
        let lunar = ChineseCalendar.lunarDate(for: date)
        #expect(lunar == LunarDate(year: 2027, month: 1, day: 1))
        #expect(lunar.written() == "正月初一")
        #expect(lunar.written(includingYear: true) == "丁未年正月初一")
        #expect(lunar.zodiac() == "羊")
        let icu = ChineseCalendar.icuLunarDate(for: date)
        #expect(icu == LunarDate(year: 2026, month: 12, day: 30))
    }

    @Test func icuDisagreesOnlyWhereDocumented() throws {
        // ICU 72 is used outside the table; inside it, it is wrong in exactly these years (fact 3).
        var years = Set<Int>()
        var days = 0
        let first = try CivilDate(year: 1901, month: 1, day: 1).daysSinceEpoch
        let last = try CivilDate(year: 2099, month: 12, day: 31).daysSinceEpoch
        for day in stride(from: first, through: last, by: 1) {
            let date = CivilDate(daysSinceEpoch: day)
            if ChineseCalendar.icuLunarDate(for: date) != ChineseCalendar.lunarDate(for: date) {
                years.insert(date.year)
                days += 1
            }
        }
        #expect(years == [1917, 1922, 1954, 1955, 1987, 1999, 2012, 2018, 2027, 2030, 2070])
        #expect(days == 417)
    }

    @Test func leapMonths() throws {
        #expect(ChineseCalendar.leapMonth(inYear: 2023) == 2)
        #expect(ChineseCalendar.leapMonth(inYear: 2025) == 6)
        #expect(ChineseCalendar.leapMonth(inYear: 2024) == nil)
        let leap = try ChineseCalendar.gregorianDate(for: LunarDate(year: 2025, month: 6, isLeapMonth: true, day: 1))
        #expect(leap == (try CivilDate(year: 2025, month: 7, day: 25)))
        #expect(ChineseCalendar.lunarDate(for: leap).written() == "閏六月初一")
        #expect(ChineseCalendar.lunarDate(for: leap).written(.simplified) == "闰六月初一")
        // A leap month that the year does not have is an error, not silently the regular month.
        #expect(throws: ICUError.self) {
            try ChineseCalendar.gregorianDate(for: LunarDate(year: 2024, month: 6, isLeapMonth: true, day: 1))
        }
        #expect(ChineseCalendar.months(inYear: 2025).count == 13)
    }

    @Test func monthLengths() throws {
        // 2025's 12th month (臘月) has 29 days: 2026-01-19 … 2026-02-16; Spring Festival is 2026-02-17.
        #expect(ChineseCalendar.length(ofMonth: 12, inYear: 2025) == 29)
        #expect(throws: ICUError.self) { try ChineseCalendar.gregorianDate(for: LunarDate(year: 2025, month: 12, day: 30)) }
        #expect(try ChineseCalendar.gregorianDate(for: LunarDate(year: 2026, month: 1, day: 1)) == CivilDate(year: 2026, month: 2, day: 17))
    }

    @Test func names() {
        #expect(LunarDate(year: 2025, month: 8, day: 15).written() == "八月十五")
        #expect(LunarDate(year: 2025, month: 12, day: 30).written() == "臘月三十")
        #expect(LunarDate(year: 2025, month: 12, day: 23).written(.simplified) == "腊月廿三")
        #expect(LunarDate(year: 2025, month: 11, day: 20).written() == "冬月二十")
        #expect(LunarDate(year: 2024, month: 1, day: 10).yearName == "甲辰年")
        #expect(LunarDate(year: 2024, month: 1, day: 10).zodiac(.simplified) == "龙")
        #expect(LunarDate(year: 1984, month: 1, day: 1).yearName == "甲子年")
        #expect(LunarDate(year: 2023, month: 2, isLeapMonth: true, day: 1).description == "2023-02L-01")
    }

    @Test func outsideTheTableICUIsUsed() throws {
        let date = try CivilDate(year: 2150, month: 6, day: 1)
        let (lunar, source) = ChineseCalendar.lunarDateAndSource(for: date)
        #expect(source == .icu)
        #expect(try ChineseCalendar.gregorianDate(for: lunar) == date)
        #expect(ChineseCalendar.tableRange.lowerBound == (try CivilDate(year: 1900, month: 1, day: 31)))
        #expect(ChineseCalendar.months(inYear: 2150).count >= 12)
    }

    /// `LunarDate(iso:)` reads what `description` writes (an L after a leap month, either case)
    /// and refuses what is not a month 1…12 and a day 1…30.
    @Test func lunarDatesReadAsWritten() throws {
        for date in [LunarDate(year: 2027, month: 1, day: 1), LunarDate(year: 2025, month: 6, isLeapMonth: true, day: 30),
                     LunarDate(year: 1900, month: 12, day: 29)] {
            #expect(try LunarDate(iso: date.description) == date)
        }
        #expect(try LunarDate(iso: "2025-06l-01") == LunarDate(year: 2025, month: 6, isLeapMonth: true, day: 1))
        for bad in ["2025-13-01", "2025-00-01", "2025-06-31", "2025-06-00", "2025-06", "20250601", "2025-L-01", "x-06-01", ""] {
            #expect(throws: ICUError.self, "\(bad)") { try LunarDate(iso: bad) }
        }
    }
}
