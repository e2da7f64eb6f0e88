@testable import AlmanacBackups
import AlmanacCalendar
import AlmanacCore
import AlmanacICalendar
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

/// Retire Time's lunar days through the calendar engine: the last day of a month, leap months and
/// what a year without the day does (RFC 7529 SKIP). Expected dates are from lunar-python
/// (`Lunar.fromYmd(y, m, d).getSolar()`), an implementation independent of ICU.
@Suite struct LunarDayTests {
    func day(_ id: String, _ date: String, month: Int, day: Int, leap: Bool = false, skip: String? = nil) throws -> RetireTimeBackup.Day {
        RetireTimeBackup.Day(id: id, name: id, date: try CivilDate(iso: date), calendar: "lunar",
                             lunarDate: .init(month: month, day: day, leap: leap, skip: skip), type: "birthday", repeat: "yearly",
                             reminder: nil, notes: nil, location: nil, categoryID: nil, icon: nil, color: nil, pinned: false, createdAt: nil, updatedAt: nil)
    }

    /// The Gregorian days a lunar day falls on, 2026 through 2036.
    func dates(_ days: [RetireTimeBackup.Day]) throws -> [String: [String]] {
        let backup = RetireTimeBackup(exportedAt: "2025-11-20T21:30:00+08:00", settings: .init(timeZone: "Asia/Taipei"), categories: [], days: days)
        let agenda = backup.calendar
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: .taipei, definitions: VTimeZoneReader())
        var result: [String: [String]] = [:]
        for index in agenda.items.indices {
            let from = try TimeZoneID.taipei.instant(for: CivilDateTime(date: CivilDate(year: 2026, month: 1, day: 1)))
            let until = try TimeZoneID.taipei.instant(for: CivilDateTime(date: CivilDate(year: 2037, month: 1, day: 1)))
            let found = expander.expand(index, overrides: [], from: from, until: until, limit: 100).occurrences
            result[agenda.items[index].uid] = found.map(\.start.day.description)
        }
        return result
    }

    /// 除夕 is the last day of the twelfth month: the 29th in 2026, the 30th in 2030.
    @Test func newYearsEveIsTheLastDayOfTheYear() throws {
        let found = try dates([day("eve", "2026-02-16", month: 12, day: -1)])
        #expect(found["eve"]?.prefix(5) == ["2026-02-16", "2027-02-05", "2028-01-25", "2029-02-12", "2030-02-02"])
        // Written as the 30th instead, the day is not in 2026 (a 29-day month): the app's default
        // for a 30th moves it to the day before, the same 除夕.
        let thirtieth = try dates([day("thirtieth", "2030-02-02", month: 12, day: 30)])
        #expect(thirtieth["thirtieth"]?.first == "2030-02-02")
    }

    /// A birthday in the leap sixth month of 2025 (閏六月初十, 2025-08-03): in years without that
    /// leap month, backward keeps it on the sixth month's tenth, forward moves it to the seventh's,
    /// and omit waits for the next leap sixth month (2036).
    @Test func leapMonthBirthdaysFollowSkip() throws {
        let found = try dates([
            try day("backward", "2025-08-03", month: 6, day: 10, leap: true),
            try day("forward", "2025-08-03", month: 6, day: 10, leap: true, skip: "forward"),
            try day("omit", "2025-08-03", month: 6, day: 10, leap: true, skip: "omit"),
        ])
        #expect(found["backward"]?.prefix(5) == ["2026-07-23", "2027-07-13", "2028-07-31", "2029-07-20", "2030-07-10"])
        #expect(found["forward"]?.first == "2026-08-22")  // 七月初十
        #expect(found["omit"] == ["2036-08-01"])  // 閏六月初十, 2036
    }

    /// The rule says SKIP; a day read back from the calendar keeps what was written, and a skip
    /// that is the app's default is not written out again.
    @Test func skipSurvivesTheCalendar() throws {
        let days = [try day("omit", "2025-08-03", month: 6, day: 10, leap: true, skip: "omit"),
                    try day("default", "2025-08-03", month: 6, day: 10, leap: true),
                    try day("eve", "2026-02-16", month: 12, day: -1)]
        let backup = RetireTimeBackup(exportedAt: "2025-11-20T21:30:00+08:00", settings: .init(timeZone: "Asia/Taipei"), categories: [], days: days)
        let agenda = backup.calendar
        #expect(agenda.items.map { $0.recurrence?.rules.first?.description } == [
            "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=10",
            "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=10;SKIP=BACKWARD",
            "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1",
        ])
        let (back, warnings) = RetireTimeBackup.make(from: agenda, context: CodecContext())
        #expect(warnings.isEmpty)
        #expect(back.days.map(\.lunarDate) == days.map(\.lunarDate))
    }

    /// Reminders has no lunar calendar: the days are written on their Gregorian date, and the
    /// warning names which.
    @Test func remindersSayWhichLunarDaysBecameGregorian() throws {
        let backup = RetireTimeBackup(exportedAt: "2025-11-20T21:30:00+08:00", settings: .init(timeZone: "Asia/Taipei"), categories: [],
                                      days: [try day("媽媽生日", "2025-10-06", month: 8, day: 15)])
        let (reminders, warnings) = RemindersBackup.make(from: backup.calendar, context: CodecContext())
        #expect(reminders.lists.flatMap(\.reminders).map(\.title) == ["媽媽生日"])
        let approximated = try #require(warnings.first { $0.code == "convert.approximated" })
        #expect(approximated.message.arguments[1] == "recurrence.rules")
        #expect(approximated.message.arguments[3] == "“媽媽生日”")
    }

    /// A calendar whose DTSTART is not on its own lunar rule (RFC 5545 leaves that undefined, and
    /// generated exports have it): the day starts at the rule's first date, the warning names the
    /// item and both dates, and the backup written reads back. This failed the CI batch.
    @Test func startsOffTheirRuleMoveToTheRuleAndSaySo() throws {
        let text = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lunar Calendar//zh-Hant//TW\r\nBEGIN:VEVENT\r\nUID:grandma@example.tw\r\n\
        DTSTAMP:20250213T023000Z\r\nDTSTART;VALUE=DATE:20251113\r\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=4\r\n\
        SUMMARY:阿嬤生日\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """
        let decoded = try ICalendarCodec().decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        let (backup, warnings) = RetireTimeBackup.make(from: agenda, context: CodecContext(timeZone: .taipei))
        #expect(backup.days.first?.date.description == "2026-05-20")  // 四月初四, lunar-python
        #expect(backup.days.first?.lunarDate == .init(month: 4, day: 4, leap: false))
        let moved = try #require(warnings.first { $0.message.arguments[1] == "start" })
        #expect(moved.code == "convert.approximated")
        #expect(moved.rendered().contains("2025-11-13 is not lunar 4-4"))
        #expect(moved.rendered().contains("阿嬤生日"))
        let codec = BackupCodec(id: "retiretime-backup")!
        let written = try codec.encode(.backup(backup.document), context: CodecContext()).bytes
        let reread = try codec.decode(CodecInput(bytes: written), context: CodecContext())
        #expect(!reread.diagnostics.contains { $0.severity == .error })
    }

    /// A 30th whose first year has no 30th starts where SKIP put it (the 29th, backward): the
    /// backup's own check accepts it, and refuses a date that is neither.
    @Test func skippedFirstDatesAreOnTheirLunarDate() throws {
        let thirtieth = RetireTimeBackup.LunarDate(month: 12, day: 30, leap: false)
        #expect(thirtieth.fallsOn(try CivilDate(iso: "2026-02-16")))  // 臘月廿九, 2026 has no 臘月三十
        #expect(thirtieth.fallsOn(try CivilDate(iso: "2030-02-02")))  // 臘月三十
        #expect(!thirtieth.fallsOn(try CivilDate(iso: "2026-02-15")))
        #expect(!RetireTimeBackup.LunarDate(month: 12, day: 30, leap: false, skip: "omit").fallsOn(try CivilDate(iso: "2026-02-16")))
        let leap = RetireTimeBackup.LunarDate(month: 6, day: 10, leap: true)
        #expect(leap.fallsOn(try CivilDate(iso: "2025-08-03")))
        #expect(leap.fallsOn(try CivilDate(iso: "2026-07-23")))  // backward: 六月初十 in a year without 閏六月
        #expect(!RetireTimeBackup.LunarDate(month: 6, day: 10, leap: true, skip: "omit").fallsOn(try CivilDate(iso: "2026-07-23")))
    }

    /// A version 2 backup reads unchanged and is written as version 3.
    @Test func versionTwoReadsUnchanged() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../AlmanacBackupsTests/Fixtures/retiretime-v2.json").standardized.path
        let decoded = try BackupCodec(id: "retiretime-backup")!.decode(CodecInput(contentsOf: fixture), context: CodecContext())
        #expect(decoded.diagnostics.map(\.code) == ["backup.migrated"])
        guard case .backup(let document) = decoded.document else { Issue.record("not a backup"); return }
        let old = try RetireTimeBackup.read(document)
        let current = try RetireTimeBackup.read(try backupDocument("retiretime"))
        #expect(old.days.map(\.id) == current.days.prefix(old.days.count).map(\.id))
        #expect(old.days.first?.lunarDate == current.days.first?.lunarDate)
        let written = try BackupCodec(id: "retiretime-backup")!.encode(decoded.document, context: CodecContext()).bytes
        #expect(String(decoding: written, as: UTF8.self).contains("\"version\": 3"))
    }
}

/// The apps' time stamps keep the offset they were written with.
@Suite struct BackupTimestampTests {
    @Test func offsetsComeBackAsWritten() throws {
        for text in ["2025-11-01T09:30:00+08:00", "2025-11-01T09:30:00+05:45", "2025-03-09T01:30:00-05:00", "2025-11-01T01:30:00Z"] {
            let value = try #require(DateValue(timestamp: text))
            #expect(value.timestamp() == text)
        }
        #expect(DateValue(timestamp: "2025-11-01T09:30:00+08:00") == .offset(try CivilDateTime(date: CivilDate(year: 2025, month: 11, day: 1), hour: 9, minute: 30), seconds: 28_800))
        #expect(DateValue(timestamp: "2025-11-01T09:30:00+08:00")?.utcTime == (try CivilDateTime(date: CivilDate(year: 2025, month: 11, day: 1), hour: 1, minute: 30)))
    }

    /// A UTC time (iCalendar's CREATED) in a backup with a zone is written as the app writes it,
    /// with the zone's offset; a floating time gets the offset its zone had on that day.
    @Test func timesGetTheBackupsZone() throws {
        let utc = DateValue.utc(try CivilDateTime(date: CivilDate(year: 2024, month: 3, day: 2), hour: 2, minute: 15))
        #expect(utc.timestamp(in: .taipei) == "2024-03-02T10:15:00+08:00")
        #expect(utc.timestamp() == "2024-03-02T02:15:00Z")
        let newYork = try TimeZoneID("America/New_York")
        let summer = DateValue.floating(try CivilDateTime(date: CivilDate(year: 2025, month: 7, day: 1), hour: 9, minute: 0))
        #expect(summer.timestamp(in: newYork) == "2025-07-01T09:00:00-04:00")
        let winter = DateValue.zoned(try CivilDateTime(date: CivilDate(year: 2025, month: 1, day: 1), hour: 9, minute: 0), zone: "America/New_York")
        #expect(winter.timestamp(in: .taipei) == "2025-01-01T09:00:00-05:00")
    }

    /// The canonical JSON form reads offsets too.
    @Test func canonicalFormReadsOffsets() throws {
        let value = try DateValue(parsing: "2025-03-05T14:30:00+08:00")
        #expect(value == .offset(try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 14, minute: 30), seconds: 28_800))
        #expect(value.description == "2025-03-05T14:30:00+08:00")
        #expect(throws: ICUError.self) { try DateValue(parsing: "2025-03-05T14:30:00+25:00") }
    }
}
