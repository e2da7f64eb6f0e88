@testable import AlmanacICalendar
import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import Foundation
import Testing

/// What real exporters write that a careful reader must not take at face value: revisions kept
/// beside each other, a day named by a time in a Windows zone, a misspelt rule part, a list with
/// one bad value, contradictions between properties, a cut-off event, and the product that made
/// the calendar (Fixtures/quirks, Fixtures/recurring-ical-events).
@Suite struct ExportQuirksTests {
    private func expand(_ agenda: Agenda, zone: TimeZoneID = .utc, from: String, until: String) -> [Occurrence] {
        OccurrenceExpander(agenda: agenda, defaultZone: zone, definitions: VTimeZoneReader())
            .occurrences(from: instant(from), until: instant(until)).occurrences
    }

    private func titles(_ occurrences: [Occurrence], in agenda: Agenda) -> [String] {
        occurrences.map { agenda.items[$0.itemIndex].title }
    }

    // MARK: Revisions

    /// Thunderbird and Exchange keep the old revisions of an event: the one with the highest
    /// SEQUENCE is the event (RFC 5545 §3.8.7.4), wherever it is in the file, and of two revisions
    /// of one override the newer replaces the occurrence. Every copy is read (a conversion keeps
    /// them) with one warning per item written more than once.
    @Test func theNewestRevisionIsTheEvent() throws {
        let (agenda, diagnostics, _) = try readFixture("quirks/revisions.ics")
        #expect(agenda.items.count == 5)
        let found = expand(agenda, from: "2020-01-01T00:00:00Z", until: "2020-02-01T00:00:00Z")
        #expect(titles(found, in: agenda) == ["Standup v2", "Standup moved new", "Standup v2"])
        #expect(found.map(\.start.description) == ["2020-01-07T09:00:00Z", "2020-01-14T13:00:00Z", "2020-01-21T09:00:00Z"])
        let revisions = diagnostics.filter { $0.code == .icsRevisions }
        // At the first copy, naming the lines of the others.
        #expect(revisions.map(\.message.arguments) == [["3", "13, 22"], ["2", "40"]])
        #expect(revisions.map(\.location?.line) == [4, 31])
    }

    /// Two copies of one override with the same SEQUENCE and DTSTAMP: the one modified later
    /// (LAST-MODIFIED) is the override. (recurring-ical-events takes the first written, test2.)
    @Test func lastModifiedBreaksATie() throws {
        let (agenda, diagnostics, _) = try readFixture("recurring-ical-events/issue_164_duplicated_event.ics")
        let found = expand(agenda, from: "2024-08-01T00:00:00Z", until: "2024-09-01T00:00:00Z")
        #expect(titles(found, in: agenda) == ["test1", "test3"])
        #expect(diagnostics.map(\.code) == [.icsRevisions])
    }

    /// Overrides whose SEQUENCE is above the series' are changes of one occurrence, not revisions:
    /// nothing is dropped or reported (the same occurrences as recurring-ical-events).
    @Test func overridesAreNotRevisionsOfTheirSeries() throws {
        let (agenda, diagnostics, _) = try readFixture("recurring-ical-events/issue_223_thunderbird.ics")
        #expect(diagnostics.isEmpty)
        let found = expand(agenda, zone: TimeZoneID.resolve("Europe/London")!.zone, from: "2025-04-01T00:00:00Z", until: "2025-05-01T00:00:00Z")
        #expect(found.map(\.start.description) == [
            "2025-04-23T09:00:00[Europe/London]", "2025-04-24T11:00:00[Europe/London]", "2025-04-25T09:00:00[Europe/London]",
            "2025-04-26T09:00:00[Europe/London]", "2025-04-27T09:00:00[Europe/London]",
        ])
        #expect(found.map(\.isOverridden) == [false, true, true, false, false])
    }

    @Test func revisionOrder() {
        func item(_ sequence: Int?, stamp: String? = nil, modified: String? = nil) -> CalendarItem {
            CalendarItem(uid: "u", title: "", lastModified: modified.map { try! DateValue(parsing: $0) },
                         stamp: stamp.map { try! DateValue(parsing: $0) },
                         carried: sequence.map { [CarriedProperty(name: "SEQUENCE", value: String($0))] } ?? [])
        }
        #expect(Revisions.supersedes(item(2), item(1)))
        #expect(!Revisions.supersedes(item(1), item(2)))
        #expect(Revisions.supersedes(item(1), item(nil)))
        #expect(Revisions.supersedes(item(0, stamp: "2020-01-02T00:00:00Z"), item(nil, stamp: "2020-01-01T00:00:00Z")))
        #expect(!Revisions.supersedes(item(0, stamp: "2020-01-01T00:00:00Z"), item(0, stamp: "2020-01-02T00:00:00Z")))
        #expect(!Revisions.supersedes(item(0, modified: "2020-01-01T00:00:00Z"), item(0, modified: "2020-01-02T00:00:00Z")))
        // All equal: the one written later.
        #expect(Revisions.supersedes(item(1), item(1)))
        #expect(Revisions.current([item(1), item(3), item(2)]) == [1])
    }

    // MARK: Days named by zoned times

    /// Exchange names the occurrence of an all-day series by a time in its Windows zone: the day
    /// written is the occurrence, whatever zone the calendar is read in.
    @Test(arguments: ["Europe/London", "America/New_York", "Asia/Taipei", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func zonedRecurrenceIDOfAnAllDaySeries(zone: String) throws {
        let (agenda, _, _) = try readFixture("quirks/exchange-allday-override.ics")
        let found = expand(agenda, zone: TimeZoneID.resolve(zone)!.zone, from: "2020-04-01T00:00:00Z", until: "2020-05-01T00:00:00Z")
        #expect(found.map(\.start.description) == ["2020-04-14", "2020-04-15", "2020-04-16", "2020-04-17"], "\(zone)")
        #expect(titles(found, in: agenda)[2] == "Holiday series (changed)", "\(zone)")
        #expect(found.filter(\.isOverridden).count == 1, "\(zone)")
    }

    // MARK: Rules and values

    /// `UNTL=` is not UNTIL: reading past it would repeat the event forever. The rule is refused
    /// (as libical and recurring-ical-events refuse it), named, and the event happens once.
    @Test func aMisspeltRulePartIsRefused() throws {
        let (agenda, diagnostics, _) = try readFixture("quirks/misspelt-until.ics")
        let warning = try #require(diagnostics.first { $0.code == .icsInvalidRrule })
        #expect(warning.message.arguments.first == "UNTL=20191023")
        #expect(warning.message.arguments.last?.contains("did you mean UNTIL?") == true)
        #expect(agenda.items[0].recurrence == nil)
        #expect(agenda.items[0].carried.contains { $0.name == "X-ALMANAC-INVALID-RRULE" && $0.value == "FREQ=WEEKLY;UNTL=20191023" })
        #expect(expand(agenda, from: "2019-10-01T00:00:00Z", until: "2020-10-01T00:00:00Z").count == 1)
        // Extensions are still carried, and a name too far from any part gets no guess.
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;X-NAME=1").extensions.map(\.name) == ["X-NAME"])
        #expect(throws: RecurrenceError.self) { try RecurrenceRule(parsing: "FREQ=DAILY;SOMETHING=1") }
        do {
            _ = try RecurrenceRule(parsing: "FREQ=DAILY;SOMETHING=1")
        } catch {
            #expect(!error.reason.contains("did you mean"))
        }
    }

    /// One bad period does not lose the list: the good ones repeat the event, the bad one is kept
    /// as written. A TZID on a UTC time and an end before the start are named.
    @Test func oddValuesAreNamed() throws {
        let (agenda, diagnostics, _) = try readFixture("quirks/odd-values.ics")
        let periods = try #require(agenda.items[0].recurrence?.periods)
        #expect(periods.map(\.start.description) == ["2020-01-02T10:00:00Z", "2020-01-04T10:00:00Z"])
        #expect(agenda.items[0].carried.contains { $0.name == "X-ALMANAC-INVALID-RDATE" && $0.value == "20200103T1000Z/PT1H" })
        #expect(agenda.items[1].start == .utc(time("2020-01-05T10:00:00")))
        #expect(agenda.items[1].parameters.isEmpty)
        #expect(diagnostics.map(\.code) == [.icsInvalidListValues, .icsTzidOnUtc, .icsEndBeforeStart])
        #expect(diagnostics.map(\.location?.line) == [9, 15, 18])
        let found = expand(agenda, from: "2020-01-01T00:00:00Z", until: "2020-02-01T00:00:00Z")
        #expect(found.count == 5)
        // The event that ends before it starts lasts no time.
        let backwards = try #require(found.last)
        #expect(backwards.endInstant == backwards.startInstant)
    }

    /// An event cut off before its start is left out (and named); what follows is read.
    @Test func aCutOffEventWithoutAStartIsLeftOut() throws {
        let (agenda, diagnostics, _) = try readFixture("quirks/cut-event.ics")
        #expect(agenda.items.map(\.uid) == ["ok-2"])
        let dropped = try #require(diagnostics.first { $0.code == .icsCutItemDropped })
        #expect(dropped.message.arguments == ["VEVENT", "4", "Cut off"])
    }

    // MARK: The product

    /// Between iCalendar's forms the calendar keeps the PRODID of the product that made it;
    /// Almanac names itself only in a calendar it made from another model.
    @Test func theProductThatMadeTheCalendarIsKept() throws {
        let (agenda, _, _) = try readFixture("quirks/revisions.ics")
        let text = String(decoding: try write(agenda), as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r\n"))
        #expect(text.components(separatedBy: "PRODID").count == 2)
        let jcal = String(decoding: try JCalCodec().encode(.agenda(agenda), context: CodecContext()).bytes, as: UTF8.self)
        #expect(jcal.contains(#"["prodid", {}, "text", "-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN"]"#))
        let made = String(decoding: try write(Agenda(items: [CalendarItem(uid: "a", title: "A", start: .date(CivilDate(unchecked: 2025, 1, 1)))])), as: UTF8.self)
        #expect(made.contains("\r\nPRODID:" + ICalendarWriter.productID + "\r\n"))
    }

    // MARK: Zones named with commas

    /// Outlook names a zone after its cities, commas and all (`TZID:Canberra, Melbourne, Sydney`,
    /// unescaped in the export); TZID is TEXT, so the calendar Almanac writes escapes them. Read
    /// back, from iCalendar and from jCal, the escaped definition is still the zone the events name
    /// (found by the calendar corpus: calcard's 191.ics lost its zone in a round trip).
    @Test func aZoneNamedWithCommasSurvivesARoundTrip() throws {
        let outlook = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Microsoft Corporation//Outlook 11.0 MIMEDIR//EN\r
            BEGIN:VTIMEZONE\r
            TZID:Canberra, Melbourne, Sydney\r
            BEGIN:STANDARD\r
            DTSTART:20080406T030000\r
            RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=4\r
            TZOFFSETFROM:+1100\r
            TZOFFSETTO:+1000\r
            END:STANDARD\r
            BEGIN:DAYLIGHT\r
            DTSTART:20081005T020000\r
            RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=10\r
            TZOFFSETFROM:+1000\r
            TZOFFSETTO:+1100\r
            END:DAYLIGHT\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            UID:standup@example.com\r
            DTSTAMP:20090319T042432Z\r
            DTSTART;TZID="Canberra, Melbourne, Sydney":20090310T093000\r
            RRULE:FREQ=DAILY;COUNT=3\r
            SUMMARY:Standup\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let original = try reread(Array(outlook.utf8))
        let expected = expand(original, from: "2009-03-01T00:00:00Z", until: "2009-04-01T00:00:00Z").map(\.startInstant)
        #expect(expected.first == instant("2009-03-09T22:30:00Z"))  // 09:30 in Sydney's summer, UTC+11
        let jcal = try JCalCodec().encode(.agenda(original), context: CodecContext()).bytes
        let decoded = try JCalCodec().decode(CodecInput(bytes: jcal, fileName: "written.jcal"), context: CodecContext())
        guard case .agenda(let fromJCal) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(fromJCal.timeZones.map(\.id) == ["Canberra, Melbourne, Sydney"])
        #expect(expand(fromJCal, from: "2009-03-01T00:00:00Z", until: "2009-04-01T00:00:00Z").map(\.startInstant) == expected)
        // From jCal to iCalendar the definition's TZID is written as TEXT, its commas escaped.
        let written = try write(fromJCal)
        #expect(String(decoding: written, as: UTF8.self).contains("TZID:Canberra\\, Melbourne\\, Sydney"))
        let again = try reread(written)
        #expect(again.timeZones.map(\.id) == ["Canberra, Melbourne, Sydney"])
        #expect(expand(again, from: "2009-03-01T00:00:00Z", until: "2009-04-01T00:00:00Z").map(\.startInstant) == expected)
    }

    // MARK: Found by the calendar corpus

    /// recurring-ical-events' issue 163: an occurrence was changed (RECURRENCE-ID 2024-08-19) and
    /// then deleted (EXDATE 2024-08-19). The deletion wins, as the peers read it; a note says so.
    @Test func anExcludedChangeIsDeleted() throws {
        let (agenda, _, _) = try readFixture("real/recurring-ical-events/issue_163_deleted_modification.ics")
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: .utc, definitions: VTimeZoneReader())
        let expanded = expander.occurrences(from: instant("2024-07-01T00:00:00Z"), until: instant("2024-10-01T00:00:00Z"))
        let days = expanded.occurrences.map(\.start.day.description)
        #expect(days == ["2024-07-29", "2024-09-09", "2024-09-30"])
        #expect(expanded.diagnostics.contains { $0.code.rawValue == "recurrence.deleted-override" })
    }

    /// Apple iCal 1.x wrote Australia/Sydney as two observances from 2006 on, the first "from
    /// +0000": read as RFC 5545 says, every time before 2006 would be UTC. Before a definition's
    /// first onset, a zone ICU knows by that name is read as ICU's zone, and a note says so; from
    /// the onset on, the file's definition holds. A zone ICU does not know keeps the RFC's reading.
    @Test(arguments: [("Australia/Sydney", "2003-09-10T01:15:00Z", true), ("Sydney (Apple)", "2003-09-10T11:15:00Z", false)])
    func aDefinitionThatStartsLateIsBackdatedByItsName(zone: String, expected: String, backdated: Bool) throws {
        let calendar = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Apple Computer\\, Inc//iCal 1.0//EN
            BEGIN:VTIMEZONE
            TZID:\(zone)
            BEGIN:STANDARD
            DTSTART:20060325T160000
            TZOFFSETTO:+1000
            TZOFFSETFROM:+0000
            TZNAME:EST
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:20061029T030000
            TZOFFSETTO:+1100
            TZOFFSETFROM:+1000
            TZNAME:EST
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:dr@example.com
            DTSTAMP:20030901T000000Z
            DTSTART;TZID=\(zone):20030910T111500
            SUMMARY:dr parikh
            END:VEVENT
            BEGIN:VEVENT
            UID:later@example.com
            DTSTAMP:20030901T000000Z
            DTSTART;TZID=\(zone):20061201T090000
            SUMMARY:later
            END:VEVENT
            END:VCALENDAR

            """
        let agenda = try reread(Array(calendar.utf8))
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: .utc, definitions: VTimeZoneReader())
        let expanded = expander.occurrences(from: instant("2003-01-01T00:00:00Z"), until: instant("2007-01-01T00:00:00Z"))
        #expect(expanded.occurrences.map(\.startInstant) == [instant(expected), instant("2006-11-30T22:00:00Z")])
        #expect(expanded.diagnostics.contains { $0.code.rawValue == "timezone.definition-backdated" } == backdated)
    }

    /// Outlook defines a zone without daylight time by one onset in 1601 (calcard's 169.ics:
    /// "Kuala Lumpur, Singapore", from +0900 to +0800). Four centuries on, that onset still holds:
    /// 09:30 there in 2008 is 01:30 UTC, not 00:30.
    @Test func anOnsetCenturiesAgoStillHolds() throws {
        let calendar = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Microsoft Corporation//Outlook 12.0 MIMEDIR//EN
            BEGIN:VTIMEZONE
            TZID:Kuala Lumpur\\, Singapore
            BEGIN:STANDARD
            DTSTART:16010101T000000
            TZOFFSETFROM:+0900
            TZOFFSETTO:+0800
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:weekly@example.com
            DTSTAMP:20081001T000000Z
            DTSTART;TZID="Kuala Lumpur, Singapore":20081031T093000
            RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=2
            SUMMARY:Weekly
            END:VEVENT
            END:VCALENDAR

            """
        let agenda = try reread(Array(calendar.utf8))
        let occurrences = expand(agenda, from: "2008-10-01T00:00:00Z", until: "2008-12-01T00:00:00Z")
        #expect(occurrences.map(\.startInstant) == [instant("2008-10-31T01:30:00Z"), instant("2008-11-07T01:30:00Z")])
    }

    /// A rule written with TEXT's escapes (`FREQ=DAILY\\;COUNT=10`, py-vobject's sample from a Ruby
    /// writer) is the rule it escapes, as python-icalendar reads it: ten days, not one.
    @Test func aRuleEscapedAsTextIsItsRule() throws {
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//ruby//EN\r\nBEGIN:VEVENT\r\nUID:r@example.com\r\n"
            + "DTSTAMP:20080529T000000Z\r\nDTSTART:20030101T070000\r\nRRULE:FREQ=DAILY\\;COUNT=10\r\nSUMMARY:Ruby\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let decoded = try ICalendarCodec().decode(CodecInput(bytes: Array(calendar.utf8), fileName: "ruby.ics"), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(!decoded.diagnostics.contains { $0.code.rawValue == "ics.invalid-rrule" })
        #expect(expand(agenda, from: "2003-01-01T00:00:00Z", until: "2004-01-01T00:00:00Z").count == 10)
    }

    /// An all-day series with timed RDATEs (icalendar-rs's single_event_bad_dtstart): the days are
    /// the series', the times dropped, and a warning says so.
    @Test func timedExtraDatesOfADaySeriesAreNamed() throws {
        let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VEVENT\r\nUID:d@example.com\r\nDTSTAMP:20050101T000000Z\r\n"
            + "DTSTART:20050120\r\nRDATE;TZID=America/Denver:20050121T170000,20050122T170000\r\nSUMMARY:Days\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let decoded = try ICalendarCodec().decode(CodecInput(bytes: Array(calendar.utf8), fileName: "days.ics"), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(decoded.diagnostics.contains { $0.code.rawValue == "ics.rdate-kind" })
        #expect(expand(agenda, from: "2005-01-01T00:00:00Z", until: "2005-02-01T00:00:00Z").map(\.start.day.description)
                == ["2005-01-20", "2005-01-21", "2005-01-22"])
    }

    /// KDE's LibICal test cases pad their lines with a space (`DTSTART:20020402T114500 `,
    /// `END:VEVENT `): the spaces are no part of a date or a component's name, as libical reads them.
    @Test func paddedLinesAreRead() throws {
        let calendar = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//x//EN\nBEGIN:VEVENT \nUID:padded \n"
            + "DTSTART:20020402T114500 \nRRULE:FREQ=WEEKLY;INTERVAL=1;COUNT=3;BYDAY=TH\nEND:VEVENT \nEND:VCALENDAR\n"
        let decoded = try ICalendarCodec().decode(CodecInput(bytes: Array(calendar.utf8), fileName: "padded.ics"), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(decoded.diagnostics.allSatisfy { $0.severity == .note }, "\(decoded.diagnostics)")
        #expect(expand(agenda, from: "2002-01-01T00:00:00Z", until: "2003-01-01T00:00:00Z").count == 3)
    }
}
