@testable import AlmanacICalendar
@testable import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

/// The calendars that the test suites of Python's icalendar, recurring-ical-events and
/// x-wr-timezone ship (Fixtures/real, with their licences): real exports from Google, Outlook,
/// Apple, Thunderbird, Nextcloud and others, and the fragments CalDAV servers store.
@Suite struct RealCalendarsTests {
    static let folder = fixturePath("real")

    /// Every `.ics` under Fixtures/real, as `source/file.ics`.
    static let files: [String] = {
        let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted()
    }()

    /// The files Almanac refuses, and why. Python's icalendar refuses the first two too (its own
    /// tests expect an error); the last two hold only a made-up top-level component (MYCOMP),
    /// which icalendar keeps as a generic component and is not a calendar.
    static let refused: [String: String] = [
        "icalendar/calendars--fuzz_testcase_0_char_in_component_name.ics": "a NUL as the component name",
        "icalendar/calendars--fuzz_testcase_invalid_month.ics": "BEGIN:V, fuzzer output",
        "icalendar/calendars--issue_178_component_with_invalid_name_represented.ics": "only BEGIN:MYCOMP",
        "icalendar/calendars--issue_178_custom_component_contains_other.ics": "only BEGIN:MYCOMPTOO",
    ]

    static func decode(_ name: String) throws(Diagnostic) -> Decoded {
        let path = folder + "/" + name
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) } ?? []
        guard ICalendarCodec().identify(Probe(prefix: bytes, fileName: path)) == .yes else {
            throw Diagnostic(.error, Message(code: "format.undetected", text: "not identified as ics"), at: SourceLocation(file: path))
        }
        return try ICalendarCodec().decode(CodecInput(contentsOf: path), context: CodecContext())
    }

    @Test func thereAreRealCalendars() {
        #expect(Self.files.count > 250)
    }

    /// Every file is identified as iCalendar and read (with warnings where it strays from
    /// RFC 5545), except the four listed with their reason.
    @Test(arguments: files)
    func everyRealCalendarIsRead(name: String) {
        do {
            _ = try Self.decode(name)
            #expect(Self.refused[name] == nil, "\(name) was read; it is listed as refused")
        } catch {
            #expect(Self.refused[name] != nil, "\(name): \(error.message.rendered())")
        }
    }

    // MARK: - Each tolerance, on a real file where one exists

    @Test func bareComponentsAreWrappedWithAWarning() throws {
        // A VEVENT as a CalDAV server stores it (Python icalendar's issue 70).
        let event = try Self.decode("icalendar/events--issue_70_rrule_causes_attribute_error.ics")
        guard case .agenda(let agenda) = event.document else { Issue.record("not an agenda"); return }
        #expect(agenda.items.count == 1)
        #expect(agenda.items.first?.recurrence?.rules.first?.frequency == .weekly)
        #expect(event.diagnostics.map(\.code).contains("ics.bare-components"))
        // A bare VTIMEZONE, a bare VALARM and a bare VTODO.
        let zone = try Self.decode("icalendar/timezones--issue_55_parse_error_on_utc_offset_with_seconds.ics")
        if case .agenda(let agenda) = zone.document { #expect(agenda.timeZones.map(\.id) == ["America/Los Angeles"]) }
        let alarm = try Self.decode("icalendar/alarms--rfc_5545_end.ics")
        if case .agenda(let agenda) = alarm.document { #expect(agenda.carriedComponents.first?.hasPrefix("BEGIN:VALARM") == true) }
        let todo = try Self.decode("icalendar/todos--example.ics")
        if case .agenda(let agenda) = todo.document { #expect(agenda.items.map(\.kind) == [.todo]) }
        // What is not a calendar component is still not iCalendar.
        #expect(ICalendarCodec().identify(Probe(prefix: Array("BEGIN:VCARD\r\nVERSION:4.0\r\n".utf8))) == .no)
    }

    @Test func blankSpaceBeforeTheCalendar() throws {
        let text = "\r\n\r\n   \r\n  BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20250101T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(ICalendarCodec().identify(Probe(prefix: Array(text.utf8))) == .yes)
        let (agenda, diagnostics, _) = try ICalendarReader().read(Array(text.utf8), fileName: "blank.ics")
        #expect(agenda.items.map(\.uid) == ["a"])
        #expect(diagnostics.isEmpty)
    }

    @Test func aMissingEndVCalendarKeepsTheCompleteComponents() throws {
        let decoded = try Self.decode("icalendar/calendars--pr_480_summary_with_colon.ics")
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(agenda.items.map(\.title) == ["Example calendar with a ': ' in the summary", "Another event with a ': ' in the summary"])
        #expect(decoded.diagnostics.map(\.code).contains("ics.calendar-unclosed"))
        // Cut off inside a component: still refused, nothing converted.
        let cut = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nSUMM"
        #expect(throws: Diagnostic.self) { try ICalendarReader().read(Array(cut.utf8), fileName: "cut.ics") }
    }

    @Test func aValueIsReadByItsShapeWhenVALUESaysOtherwise() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTART;VALUE=DATE:20110804T120000\r
            DTEND;VALUE=DATE-TIME:20110805\r
            EXDATE;VALUE=DATE:20110811T120000\r
            RRULE:FREQ=WEEKLY;COUNT=3\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let (agenda, diagnostics, _) = try ICalendarReader().read(Array(text.utf8), fileName: "shape.ics")
        let item = try #require(agenda.items.first)
        #expect(item.start == .floating(try CivilDateTime(date: CivilDate(year: 2011, month: 8, day: 4), hour: 12, minute: 0)))
        #expect(item.end == .date(try CivilDate(year: 2011, month: 8, day: 5)))
        #expect(item.recurrence?.exceptions.count == 1)
        #expect(!item.carried.contains { $0.name.hasPrefix("X-ALMANAC-INVALID") })
        #expect(diagnostics.filter { $0.code == "ics.value-type-mismatch" }.count == 3)
        // Written back without the contradicting VALUE.
        let written = String(decoding: try write(agenda), as: UTF8.self)
        #expect(written.contains("DTSTART:20110804T120000\r\n"))
        #expect(written.contains("DTEND;VALUE=DATE:20110805\r\n"))
    }

    @Test func aRuleWithPartsNoReaderCanUseIsRepaired() throws {
        // A real Google export, and python-icalendar's BYDAY with spaces (issue 165).
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:g\r\nDTSTART:20250103T090000Z\r\nRRULE:RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=FR,MO;COUNT=4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let (agenda, diagnostics, _) = try ICalendarReader().read(Array(text.utf8), fileName: "google.ics")
        #expect(agenda.items.first?.recurrence?.rules.first?.description == "FREQ=WEEKLY;BYDAY=FR,MO;COUNT=4")
        let warning = try #require(diagnostics.first { $0.code == "ics.rrule-repaired" })
        #expect(warning.message.rendered().contains("RRULE:, AnythingRandom"))
        let expander = OccurrenceExpander(agenda: agenda)
        let dates = expander.occurrences(from: instant("2025-01-01T00:00:00Z"), until: instant("2025-02-01T00:00:00Z")).occurrences.map(\.start.day.description)
        #expect(dates == ["2025-01-03", "2025-01-06", "2025-01-10", "2025-01-13"])

        let spaces = try Self.decode("icalendar/calendars--issue_165_missing_event.ics")
        guard case .agenda(let calendar) = spaces.document else { Issue.record("not an agenda"); return }
        #expect(calendar.items.contains { $0.recurrence?.rules.first?.byDay.count == 5 })
        #expect(!spaces.diagnostics.map(\.code).contains("ics.invalid-rrule"))
    }

    @Test func anAlarmWithoutTriggerIsCarried() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20250103T090000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nEND:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=TIME:230000\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let (agenda, diagnostics, _) = try ICalendarReader().read(Array(text.utf8), fileName: "alarm.ics")
        #expect(agenda.items.first?.carriedComponents.count == 2)
        #expect(Set(diagnostics.map(\.code)) == ["ics.alarm-without-trigger", "ics.invalid-trigger"])
        let written = String(decoding: try write(agenda), as: UTF8.self)
        #expect(written.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nEND:VALARM\r\n"))
        #expect(written.contains("TRIGGER;VALUE=TIME:230000\r\n"))
    }

    @Test func propertyGroupsAreReadAndCarried() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nGROUP1.X-TEST;X-P=1:hello\r\nITEM2.URL:https://example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let (agenda, diagnostics, _) = try ICalendarReader().read(Array(text.utf8), fileName: "groups.ics")
        #expect(diagnostics.isEmpty)
        #expect(agenda.items.first?.carried.map(\.name) == ["GROUP1.X-TEST", "ITEM2.URL"])
        #expect(agenda.items.first?.url == nil)
        let written = String(decoding: try write(agenda), as: UTF8.self)
        #expect(written.contains("GROUP1.X-TEST;X-P=1:hello\r\n"))
    }

    @Test func foldsAcrossBlankLinesEscapedAndEmptyParameters() throws {
        let folded = try Self.decode("icalendar/calendars--multiple_calendar_components.ics")
        #expect(!folded.diagnostics.map(\.code).contains("ics.broken-line"))
        guard case .agenda(let agenda) = folded.document else { Issue.record("not an agenda"); return }
        #expect(agenda.items.count == 3)
        #expect(agenda.carried.contains { $0.name == "METHOD" && $0.value == "PUBLISH" })

        let escaped = try Self.decode("icalendar/events--event_with_escaped_character3.ics")
        guard case .agenda(let organizer) = escaped.document else { Issue.record("not an agenda"); return }
        let property = organizer.items.first?.carried.first { $0.name == "ORGANIZER" }
        #expect(property?.parameters.first?.values == ["Society; 2014"])
        #expect(property?.value == "that")

        let empty = try Self.decode("icalendar/calendars--broken_ical.ics")
        guard case .agenda(let broken) = empty.document else { Issue.record("not an agenda"); return }
        #expect(broken.items.first?.start != nil)
    }

    /// The same file in pieces of any size reads the same, whatever the tolerances join.
    @Test(arguments: ["outlook-export.ics", "real/icalendar/calendars--multiple_calendar_components.ics",
                      "real/icalendar/events--issue_70_rrule_causes_attribute_error.ics"])
    func chunkBoundariesDoNotMatter(name: String) throws {
        let bytes = try fixture(name)
        let whole = try ICalendarReader().read(bytes, fileName: "x").agenda
        for size in [1, 2, 3, 7, 64, 97] {
            var parser = ICalParser(fileName: "x")
            var items: [CalendarItem] = []
            var events = ReaderEvents(mapper: ItemMapper(fileName: "x"), applyCalendarZone: true, onFrame: { _ in }) { (item) throws(Diagnostic) in
                items.append(item)
            }
            var index = 0
            while index < bytes.count {
                try parser.feed(Array(bytes[index..<min(index + size, bytes.count)]), isLast: false, into: &events)
                index += size
            }
            try parser.feed([], isLast: true, into: &events)
            try parser.finish(into: &events)
            #expect(items == whole.items, "chunk size \(size)")
        }
    }

    /// Random calendars whose lines end in CRLF, LF or CR, fold with a space or a tab (inside a
    /// UTF-8 character too, and after blank lines), fed in pieces of random sizes: the items, the
    /// calendar and every warning are those of the whole file read at once.
    @Test(arguments: 1...6)
    func randomPiecesReadAsTheWhole(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let breaks = ["\r\n", "\n", "\r"]
        var bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME:家\r\n".utf8)
        for item in 0..<40 {
            let lineBreak = breaks.randomElement(using: &generator)!
            var lines = ["BEGIN:VEVENT", "UID:\(item)@x", "DTSTART;VALUE=DATE:2025\(String(format: "%02d", item % 12 + 1))05",
                         "SUMMARY:媽媽生日 \(item) 記得提前訂蛋糕", "DESCRIPTION:" + String(repeating: "備註，", count: Int.random(in: 0...30, using: &generator)),
                         "RRULE:FREQ=YEARLY;COUNT=\(item + 1)"]
            if Bool.random(using: &generator) { lines.append("BROKEN LINE WITHOUT COLON") }
            lines.append("END:VEVENT")
            for line in lines {
                var folded = Array(line.utf8)
                // Folds at random byte positions (inside a character as often as not).
                var position = Int.random(in: 8...80, using: &generator)
                while position < folded.count {
                    let blank = Int.random(in: 0..<6, using: &generator) == 0 ? Array(lineBreak.utf8) : []
                    folded.insert(contentsOf: Array(lineBreak.utf8) + blank + [Bool.random(using: &generator) ? 0x20 : 0x09], at: position)
                    position += Int.random(in: 8...80, using: &generator) + lineBreak.utf8.count + 1
                }
                bytes += folded + Array(lineBreak.utf8)
            }
        }
        bytes += Array("END:VCALENDAR\r\n".utf8)
        func read(pieces: Bool) throws -> (items: [CalendarItem], agenda: Agenda, diagnostics: [Diagnostic]) {
            var parser = ICalParser(fileName: "x")
            parser.validatesUTF8 = true
            var items: [CalendarItem] = []
            var events = ReaderEvents(mapper: ItemMapper(fileName: "x"), applyCalendarZone: true, onFrame: { _ in }) { (item) throws(Diagnostic) in
                items.append(item)
            }
            var index = 0
            while pieces, index < bytes.count {
                let size = Int.random(in: 1...300, using: &generator)
                try parser.feed(Array(bytes[index..<min(index + size, bytes.count)]), isLast: false, into: &events)
                index += size
            }
            try parser.feed(pieces ? [] : bytes, isLast: true, into: &events)
            try parser.finish(into: &events)
            return (items, events.agenda, parser.diagnostics + events.mapper.diagnostics)
        }
        let whole = try read(pieces: false)
        #expect(whole.items.count == 40)
        #expect(whole.items.allSatisfy { $0.title.hasPrefix("媽媽生日") })
        for _ in 0..<8 {
            let read = try read(pieces: true)
            #expect(read.items == whole.items)
            #expect(read.diagnostics == whole.diagnostics)
            #expect(read.agenda == whole.agenda)
        }
        // The reader, which first asks what charset the file is in, reads it as the same UTF-8.
        #expect(try ICalendarReader().read(bytes, fileName: "x").agenda.items == whole.items)
    }
}
