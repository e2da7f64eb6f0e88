import AlmanacICU
import Foundation
import Testing

/// Expected strings come from CLDR through Babel 2.18 (`format_skeleton`), which agrees with ICU 72 here.
@Suite struct DateFormatTests {
    let taipei = try! TimeZoneID("Asia/Taipei")
    // 2025-03-05 14:30 in Taipei.
    let instant = Date(timeIntervalSince1970: 1_741_156_200)

    @Test(arguments: [
        ("en-US", "yMMMd", "Mar 5, 2025"),
        ("zh-TW", "yMMMd", "2025年3月5日"),
        ("zh-CN", "yMMMd", "2025年3月5日"),
        ("en-US", "yMMMEd", "Wed, Mar 5, 2025"),
        ("zh-TW", "yMMMEd", "2025年3月5日 週三"),
        ("zh-CN", "yMMMEd", "2025年3月5日周三"),
        ("en-US", "yMd", "3/5/2025"),
        ("zh-TW", "yMd", "2025/3/5"),
        ("zh-TW", "Hm", "14:30"),
        ("en-US", "MMMMd", "March 5"),
        ("zh-Hans", "yMMMM", "2025年3月"),
    ])
    func skeletons(locale: String, skeleton: String, expected: String) throws {
        let format = try DateFormat(skeleton: skeleton, locale: LocaleID(locale), timeZone: taipei)
        #expect(format.string(from: instant) == expected)
    }

    @Test func localeChoosesTwelveOrTwentyFourHourClock() throws {
        // "j" is the locale's preferred hour: 12-hour with 下午 in zh-TW, 12-hour with PM in en-US.
        let zh = try DateFormat(skeleton: "jm", locale: LocaleID("zh-TW"), timeZone: taipei)
        #expect(zh.string(from: instant) == "下午2:30")
        let en = try DateFormat(skeleton: "jm", locale: LocaleID("en-US"), timeZone: taipei)
        // ICU 72 puts U+202F (narrow no-break space) before PM.
        #expect(en.string(from: instant) == "2:30\u{202F}PM")
    }

    @Test func sameInstantInAnotherZone() throws {
        let newYork = try DateFormat(pattern: "yyyy-MM-dd HH:mm", locale: .americanEnglish, timeZone: .newYork)
        #expect(newYork.string(from: instant) == "2025-03-05 01:30")
    }

    @Test func civilDatesDoNotShift() throws {
        // An all-day date shown in a zone far from UTC stays the same day.
        let date = try CivilDate(year: 2025, month: 1, day: 1)
        for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Taipei"] {
            let format = try DateFormat(skeleton: "yMd", locale: .taiwan, timeZone: TimeZoneID(zone))
            #expect(format.string(from: date) == "2025/1/1")
        }
    }

    @Test func parsesInLocalePatterns() throws {
        let zh = try DateFormat(pattern: "y年M月d日", locale: .taiwan, timeZone: taipei)
        #expect(try zh.parseDate("2025年3月5日") == CivilDate(year: 2025, month: 3, day: 5))
        let slash = try DateFormat(pattern: "y/M/d", locale: .taiwan, timeZone: taipei)
        #expect(try slash.parseDate("2025/3/5") == CivilDate(year: 2025, month: 3, day: 5))
        let us = try DateFormat(pattern: "M/d/y", locale: .americanEnglish, timeZone: .newYork)
        #expect(try us.parseDate("3/5/2025") == CivilDate(year: 2025, month: 3, day: 5))
    }

    @Test func strictParsingRejectsImpossibleAndTrailingText() throws {
        let format = try DateFormat(pattern: "yyyy-MM-dd", locale: .english)
        #expect(throws: ICUError.self) { try format.parse("2025-02-30") }
        let error = #expect(throws: ICUError.self) { try format.parse("2025-03-05 extra") }
        #expect(error?.kind == .unparseable)
        #expect(error?.offset == 10)
    }

    @Test func invalidPatternIsAnError() {
        #expect(throws: ICUError.self) { try DateFormat(pattern: "yyyy-MM-dd nn", locale: .english)
        }
        #expect(throws: ICUError.self) { try DateFormat(pattern: "yyyy-'MM", locale: .english) }
    }

    @Test func styles() throws {
        let format = try DateFormat(dateStyle: .long, timeStyle: .none, locale: .taiwan, timeZone: taipei)
        #expect(format.string(from: instant) == "2025年3月5日")
    }

    @Test func rocCalendar() throws {
        let date = try CivilDate(year: 2025, month: 3, day: 5)
        #expect(try ROCCalendar.written(date) == "民國114年3月5日")
        #expect(try ROCCalendar.parse("民國114年3月5日") == date)
        #expect(ROCCalendar.year(ofGregorianYear: 2025) == 114)
        #expect(ROCCalendar.year(ofGregorianYear: 1912) == 1)
        #expect(ROCCalendar.year(ofGregorianYear: 1911) == -1)
        #expect(ROCCalendar.gregorianYear(ofROCYear: 114) == 2025)
        // CLDR's zh_Hant ROC skeleton yMd is "r/M/d" with the ROC year: 114/3/5 (Babel: 民國114/3/5 with G).
        let short = try DateFormat(skeleton: "GyMd", locale: ROCCalendar.locale())
        #expect(short.string(from: date) == "民國114/3/5")
    }
}

@Suite struct CivilDateTests {
    @Test func rejectsImpossibleDates() {
        #expect(throws: ICUError.self) { try CivilDate(year: 2025, month: 2, day: 29) }
        #expect(throws: ICUError.self) { try CivilDate(iso: "2025-02-30") }
        #expect(throws: ICUError.self) { try CivilDate(iso: "2025-13-01") }
        #expect((try? CivilDate(year: 2024, month: 2, day: 29)) != nil)
    }

    @Test func dayNumbersMatchTheUnixEpoch() throws {
        #expect(try CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(try CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(try CivilDate(year: 1901, month: 1, day: 1).daysSinceEpoch == -25_202)
        for day in stride(from: -80_000, to: 80_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: day).daysSinceEpoch == day)
        }
        #expect(try CivilDate(year: 2025, month: 3, day: 5).isoWeekday == 3)  // a Wednesday
    }

    @Test func isoForms() throws {
        let date = try CivilDate(iso: "20250305")
        #expect(date.description == "2025-03-05")
        #expect(date.basicISO == "20250305")
        #expect(try CivilDate(iso: "2025-03-05") == date)
        #expect(try CivilDate(year: 2024, month: 2, day: 29).adding(years: 1).description == "2025-02-28")
    }
}

/// ISO text of civil dates and times, written as bytes: the same as the padded parts joined, for
/// years of one to four digits, before year 0 and after 9999 (which keep their sign and digits).
@Test func isoTextIsThePaddedPartsJoined() throws {
    func joined(_ y: Int, _ m: Int, _ d: Int) -> String {
        (y < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - String(abs(y)).count)) + String(abs(y))
            + "-" + (m < 10 ? "0" : "") + String(m) + "-" + (d < 10 ? "0" : "") + String(d)
    }
    var generator = SystemRandomNumberGenerator()
    let years = [0, 1, 9, 10, 99, 100, 999, 1000, 2025, 9999, 10000, 12345, -1, -44, -10000]
        + (0..<200).map { _ in Int.random(in: -20000...20000, using: &generator) }
    for year in years {
        let month = Int.random(in: 1...12, using: &generator), day = Int.random(in: 1...28, using: &generator)
        let hour = Int.random(in: 0...23, using: &generator), minute = Int.random(in: 0...59, using: &generator)
        let date = CivilDate(unchecked: year, month, day)
        #expect(date.description == joined(year, month, day))
        let time = CivilDateTime(unchecked: date, hour, minute, 5)
        #expect(time.description == joined(year, month, day) + "T" + (hour < 10 ? "0" : "") + String(hour) + ":"
                + (minute < 10 ? "0" : "") + String(minute) + ":05")
    }
}
