@testable import AlmanacICalendar
@testable import AlmanacCalendar
import AlmanacCore
import AlmanacTestSupport
import AlmanacICU
import Foundation
import Testing

@Suite struct ExpansionTests {
    func occurrences(_ name: String, from: String, until: String, zone: TimeZoneID = .taipei) throws -> [Occurrence] {
        let agenda = try readFixture(name).agenda
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: zone, definitions: VTimeZoneReader())
        return expander.occurrences(from: instant(from), until: instant(until)).occurrences
    }

    @Test func weeklyMeetingWithExceptionAndOverride() throws {
        let found = try occurrences("google-export.ics", from: "2025-03-01T00:00:00Z", until: "2025-05-31T00:00:00Z")
            .filter { $0.uid.hasPrefix("4q8b") }
        let starts = found.map(\.start.description)
        #expect(starts == [
            "2025-03-03T09:30:00[Asia/Taipei]", "2025-03-10T09:30:00[Asia/Taipei]",
            "2025-03-18T14:00:00[Asia/Taipei]",  // moved by the RECURRENCE-ID override
            "2025-03-24T09:30:00[Asia/Taipei]",  // 03-31 is an EXDATE
            "2025-04-07T09:30:00[Asia/Taipei]", "2025-04-14T09:30:00[Asia/Taipei]",
            "2025-04-21T09:30:00[Asia/Taipei]", "2025-04-28T09:30:00[Asia/Taipei]",  // UNTIL 01:59:59Z = 09:59:59 Taipei
        ])
        #expect(found[2].isOverridden)
        #expect(found[2].recurrenceID == .zoned(time("2025-03-17T09:30:00"), zone: "Asia/Taipei"))
        #expect(found[0].endInstant.timeIntervalSince(found[0].startInstant) == 3600)
    }

    /// RFC 5545 forbids BYHOUR/BYMINUTE/BYSECOND with a DATE start; they are ignored with a
    /// warning (the same day three times before), and kept in the item as written.
    @Test func timePartsOfAnAllDayRuleAreIgnored() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d\r\nSUMMARY:Day\r\nDTSTART;VALUE=DATE:20240101\r\nRRULE:FREQ=DAILY;BYMINUTE=1,2,3,4;INTERVAL=2;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let agenda = try ICalendarReader().read(Array(text.utf8), fileName: "d.ics").agenda
        let (found, diagnostics) = OccurrenceExpander(agenda: agenda).occurrences(from: instant("2024-01-01T00:00:00Z"), until: instant("2024-02-01T00:00:00Z"))
        #expect(found.map(\.start.description) == ["2024-01-01", "2024-01-03", "2024-01-05"])
        #expect(diagnostics.map(\.code) == ["recurrence.time-parts-ignored"])
        #expect(agenda.items[0].recurrence?.rules[0].byMinute == [1, 2, 3, 4])
    }

    @Test func allDayBirthdaysDoNotShift() throws {
        // The 1960 birthday, read in New York, is still on 12 September.
        let found = try occurrences("google-export.ics", from: "2025-09-01T00:00:00Z", until: "2027-01-01T00:00:00Z", zone: .newYork)
            .filter { $0.uid.hasPrefix("birthday") }
        #expect(found.map(\.start.description) == ["2025-09-12", "2026-09-12"])
        #expect(found.allSatisfy { $0.end == .date($0.start.day.adding(days: 1)) })
    }

    @Test func customizedTimeZoneFollowsItsOwnDefinition() throws {
        // Outlook's "Customized Time Zone" is US Eastern by its rules: DST starts 9 March 2025.
        let found = try occurrences("outlook-export.ics", from: "2025-03-01T00:00:00Z", until: "2025-04-01T00:00:00Z")
            .filter { $0.start.description.contains("Customized") }
        #expect(found.map(\.startInstant) == [instant("2025-03-07T14:00:00Z"), instant("2025-03-14T13:00:00Z"),
                                              instant("2025-03-21T13:00:00Z"), instant("2025-03-28T13:00:00Z")])
    }

    /// A file's VTIMEZONE is data from a stranger: a `FREQ=SECONDLY` observance made every year
    /// of the zone table step through 31 million onsets (over a minute for one event). Rules no
    /// time zone has are ignored with a warning; COUNT rules are followed once, not every year.
    @Test func definedZonesWithRulesNoZoneHas() throws {
        func calendar(_ observance: String) -> [UInt8] {
            Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Odd\r\n" + observance +
                   "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;TZID=Odd:20240101T090000\r\n" +
                   "RRULE:FREQ=YEARLY;BYMONTH=1,7\r\nSUMMARY:Check\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
        }
        func expand(_ bytes: [UInt8]) throws -> (starts: [Date], codes: [String]) {
            let agenda = try reread(bytes)
            let (found, diagnostics) = OccurrenceExpander(agenda: agenda, definitions: VTimeZoneReader()).occurrences(
                from: instant("2024-01-01T00:00:00Z"), until: instant("2027-01-01T00:00:00Z"))
            return (found.map(\.startInstant), diagnostics.map(\.code.rawValue))
        }
        let secondly = try expand(calendar("BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0800\r\nTZOFFSETTO:+0900\r\n" +
                                           "RRULE:FREQ=SECONDLY\r\nEND:STANDARD\r\n"))
        #expect(secondly.codes == ["timezone.rule-ignored"])
        #expect(secondly.starts.count == 6)
        #expect(secondly.starts.allSatisfy { ISO8601DateFormatter().string(from: $0).hasSuffix("T00:00:00Z") })  // 09:00 at +09:00

        // Summer time (+09:00 from March to October) for two years only, by COUNT.
        let counted = try expand(calendar(
            "BEGIN:STANDARD\r\nDTSTART:20231029T020000\r\nTZOFFSETFROM:+0900\r\nTZOFFSETTO:+0800\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;COUNT=3\r\nEND:STANDARD\r\n" +
            "BEGIN:DAYLIGHT\r\nDTSTART:20240331T020000\r\nTZOFFSETFROM:+0800\r\nTZOFFSETTO:+0900\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=2\r\nEND:DAYLIGHT\r\n"))
        #expect(counted.codes == [])
        #expect(counted.starts.map { ISO8601DateFormatter().string(from: $0) } == [
            "2024-01-01T01:00:00Z", "2024-07-01T00:00:00Z", "2025-01-01T01:00:00Z", "2025-07-01T00:00:00Z",
            "2026-01-01T01:00:00Z", "2026-07-01T01:00:00Z",  // no summer time in 2026
        ])
    }

    @Test func windowsZoneNamesResolve() throws {
        let review = try occurrences("outlook-export.ics", from: "2025-03-01T00:00:00Z", until: "2025-04-01T00:00:00Z")
            .first { $0.start.description.contains("Taipei Standard Time") }
        #expect(review?.startInstant == instant("2025-03-12T07:00:00Z"))
    }

    @Test func lunarRulesFollowThePublishedCalendar() throws {
        let found = try occurrences("lunar-birthdays.ics", from: "2025-01-01T00:00:00Z", until: "2029-01-01T00:00:00Z")
        func days(_ uid: String) -> [String] { found.filter { $0.uid.hasPrefix(uid) }.map(\.start.description) }
        // lunar-python: 八月十五 2025–2028.
        #expect(days("lunar-mom") == ["2025-10-06", "2026-09-25", "2027-09-15", "2028-10-03"])
        // 閏六月初一 with SKIP=FORWARD: the seventh month's first day in years without a leap sixth month.
        #expect(days("lunar-grandpa") == ["2025-07-25", "2026-08-13", "2027-08-02", "2028-08-20"])
        // 除夕: the last day of the twelfth month (2027-02-05 is 臘月廿九; ICU 72 says 2027-02-06 is still 臘月).
        #expect(days("chuxi") == ["2026-02-16", "2027-02-05", "2028-01-25"])
    }

    @Test func dstKeepsWallTimes() throws {
        let agenda = Agenda(items: [CalendarItem(
            uid: "standup", title: "Stand-up",
            start: .zoned(time("2025-03-03T09:00:00"), zone: "America/New_York"),
            end: .zoned(time("2025-03-03T09:15:00"), zone: "America/New_York"),
            recurrence: Recurrence(rules: [rule("FREQ=WEEKLY;COUNT=3")]))])
        let found = OccurrenceExpander(agenda: agenda, definitions: VTimeZoneReader()).occurrences(from: instant("2025-03-01T00:00:00Z"), until: instant("2025-04-01T00:00:00Z")).occurrences
        #expect(found.map(\.startInstant) == [instant("2025-03-03T14:00:00Z"), instant("2025-03-10T13:00:00Z"), instant("2025-03-17T13:00:00Z")])
        #expect(found.allSatisfy { $0.endInstant.timeIntervalSince($0.startInstant) == 900 })
    }

    @Test func thisAndFutureOverrides() throws {
        let master = CalendarItem(uid: "class", title: "Piano", start: .floating(time("2025-01-06T17:00:00")),
                                  end: .floating(time("2025-01-06T18:00:00")), recurrence: Recurrence(rules: [rule("FREQ=WEEKLY;COUNT=6")]))
        let moved = CalendarItem(uid: "class", title: "Piano (new teacher)", start: .floating(time("2025-01-22T18:00:00")),
                                 end: .floating(time("2025-01-22T19:00:00")),
                                 recurrenceID: .floating(time("2025-01-20T17:00:00")), recurrenceThisAndFuture: true)
        let expander = OccurrenceExpander(agenda: Agenda(items: [master, moved]), definitions: VTimeZoneReader())
        let found = expander.occurrences(from: instant("2025-01-01T00:00:00Z"), until: instant("2025-03-01T00:00:00Z")).occurrences
        #expect(found.map(\.start.description) == ["2025-01-06T17:00:00", "2025-01-13T17:00:00", "2025-01-22T18:00:00",
                                                   "2025-01-29T18:00:00", "2025-02-05T18:00:00", "2025-02-12T18:00:00"])
        #expect(found.suffix(4).allSatisfy { expander.agenda.items[$0.itemIndex].title == "Piano (new teacher)" })
    }

    @Test func unboundedRulesAreCapped() throws {
        let agenda = Agenda(items: [CalendarItem(uid: "tick", title: "Tick", start: .floating(time("2025-01-01T00:00:00")),
                                                 recurrence: Recurrence(rules: [rule("FREQ=MINUTELY")]))])
        let (found, diagnostics) = OccurrenceExpander(agenda: agenda, definitions: VTimeZoneReader()).occurrences(
            from: instant("2025-01-01T00:00:00Z"), until: instant("2026-01-01T00:00:00Z"), limit: 1000)
        #expect(found.count <= 1000)
        #expect(diagnostics.map(\.code) == ["recurrence.capped"])
    }

    /// The limit counts occurrences that reach the window: an every-second rule that began hours
    /// before it still lists `limit` of them (it listed none when the margin before the window
    /// used the limit up), and a rule that never matches stops with a warning.
    @Test func cappedRulesStillFillTheWindow() throws {
        let agenda = Agenda(items: [
            CalendarItem(uid: "s", title: "Every second", start: .utc(time("2025-01-01T00:00:00")), recurrence: Recurrence(rules: [rule("FREQ=SECONDLY")])),
            CalendarItem(uid: "n", title: "Never", start: .utc(time("2025-01-01T00:00:00")),
                         recurrence: Recurrence(rules: [rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")])),
        ])
        let (found, diagnostics) = OccurrenceExpander(agenda: agenda, definitions: VTimeZoneReader()).occurrences(
            from: instant("2025-01-01T05:00:00Z"), until: instant("2125-01-01T00:00:00Z"), limit: 500)
        #expect(found.count == 500)
        #expect(found.first?.start.description == "2025-01-01T05:00:00Z")
        #expect(Set(diagnostics.map(\.code)) == ["recurrence.capped", "recurrence.never-matches"])
    }
    /// Found by Scripts/fuzz.py (agenda-json, over libFuzzer's 10 s timeout): a monthly event
    /// begun in 1012 in a zone read through ICU, expanded into 2025–2026. The transition table
    /// reread every year it covered each time it reached one year further — a walk through a
    /// thousand years asked ICU half a million times. Each year is now read once.
    @Test func walkingThroughCenturiesReadsEachYearOnce() {
        let reads = Counter()
        let table = TransitionTable(source: { year in reads.add(year); return [] }, offsetBefore: { _ in 28_800 })
        for year in 1012...2026 {
            for month in [1, 7] {
                _ = table.instant(for: CivilDateTime(unchecked: CivilDate(unchecked: year, month, 5), 9, 0, 0))
            }
        }
        for year in stride(from: 2026, through: 900, by: -1) {
            _ = table.offset(at: CivilDateTime(unchecked: CivilDate(unchecked: year, 3, 1), 0, 0, 0).secondsSinceEpoch)
        }
        #expect(reads.years.count == Set(reads.years).count, "a year was read twice")
        #expect(reads.years.count <= (2026 - 900 + 1) + 2 * TransitionTable.chunk)
    }

    @Test func fuzzerFindingsExpandQuickly() throws {
        let found = try expandFuzzInput("timeout-agenda-json-1012")
        // The 1012 event's occurrences all last until 9268, so every one overlaps the window: the
        // cap (per rule) stops it; the single call stays.
        #expect(found.filter { $0.uid == "mortgage@family.example" }.count == 200)
        #expect(found.filter { $0.uid == "call-grandma@family.example" }.count == 1)
    }

    /// Found by Scripts/fuzz.py: a rule with BYMONTH=13 trapped in the Gregorian iterator (see
    /// RuleIteratorTests.monthsTheGregorianCalendarLacks); the rest of the file still expands.
    /// (The fuzzer's mangled part name is an `X-` name here: a part RFC 5545 does not name is
    /// refused since the reader stopped reading past misspelt ones, `UNTL=`.)
    @Test func fuzzerFindingsExpandWithoutTrapping() throws {
        let found = try expandFuzzInput("crash-agenda-json-bymonth-13")
        #expect(found.contains { $0.start.description.hasPrefix("2025-10-06") })
    }

    /// Decodes an agenda-json input the fuzzer found and expands it as the fuzz target does.
    private func expandFuzzInput(_ name: String) throws -> [Occurrence] {
        let decoded = try ModelJSONCodec(.agenda).decode(CodecInput(contentsOf: fixturePath("fuzz/" + name)), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return [] }
        return OccurrenceExpander(agenda: agenda, defaultZone: .taipei, definitions: VTimeZoneReader())
            .occurrences(from: instant("2025-01-01T00:00:00Z"), until: instant("2027-01-01T00:00:00Z"), limit: 200).occurrences
    }
}

/// Years a table asked its source about.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var read: [Int] = []
    var years: [Int] { lock.withLock { read } }
    func add(_ year: Int) { lock.withLock { read.append(year) } }
}
