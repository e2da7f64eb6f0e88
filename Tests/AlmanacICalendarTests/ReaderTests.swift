@testable import AlmanacICalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

@Suite struct ReaderTests {
    @Test func googleExport() throws {
        let (agenda, diagnostics, encoding) = try readFixture("google-export.ics")
        #expect(diagnostics.isEmpty)
        #expect(encoding == "UTF-8")
        #expect(agenda.name == "家庭行事曆")
        #expect(agenda.timeZone == "Asia/Taipei")
        #expect(agenda.carried.map(\.name) == ["PRODID", "CALSCALE", "METHOD", "X-WR-CALDESC"])
        // The Asia/Taipei VTIMEZONE names a well-known location: ICU's zone is used, not carried.
        #expect(agenda.timeZones.isEmpty)
        #expect(agenda.items.count == 4)

        let meeting = agenda.items[0]
        #expect(meeting.title == "家庭會議")
        #expect(meeting.notes == "每週一早上的家庭會議。\n議程：\n1. 本週行程\n2. 繳費事項")
        #expect(meeting.start == .zoned(time("2025-03-03T09:30:00"), zone: "Asia/Taipei"))
        // Rules are typed; their text keeps the source's order and explicit defaults.
        #expect(meeting.recurrence?.rules.map(\.description) == ["FREQ=WEEKLY;WKST=MO;UNTIL=20250428T015959Z;BYDAY=MO"])
        #expect(meeting.recurrence?.exceptions == [.zoned(time("2025-03-31T09:30:00"), zone: "Asia/Taipei")])
        #expect(meeting.alarms == [Alarm(trigger: .relative(seconds: -600, fromEnd: false), message: "This is an event reminder")])
        #expect(meeting.status == "CONFIRMED")
        #expect(meeting.stamp == .utc(time("2025-03-01T02:30:00")))
        #expect(meeting.carried.map(\.name) == ["ORGANIZER", "ATTENDEE", "X-GOOGLE-CONFERENCE", "SEQUENCE", "TRANSP"])
        #expect(meeting.carried[1].parameters.first { $0.name == "CN" }?.values == ["陳美玲"])

        let override = agenda.items[1]
        #expect(override.uid == meeting.uid)
        #expect(override.recurrenceID == .zoned(time("2025-03-17T09:30:00"), zone: "Asia/Taipei"))

        let birthday = agenda.items[2]
        #expect(birthday.start == .date(try CivilDate(year: 1960, month: 9, day: 12)))
        #expect(birthday.isAllDay)
        #expect(birthday.title == "爸爸生日 🎂")

        // X-WR-TIMEZONE turns Google's UTC time into Taipei wall time (09:00), as x-wr-timezone does.
        #expect(agenda.items[3].start == .zoned(time("2025-03-05T09:00:00"), zone: "Asia/Taipei"))
        let strict = try readFixture("google-export.ics", options: ["x-wr-timezone": "ignore"])
        #expect(strict.agenda.items[3].start == .utc(time("2025-03-05T01:00:00")))
    }

    @Test func outlookExport() throws {
        let (agenda, diagnostics, _) = try readFixture("outlook-export.ics")
        #expect(diagnostics.isEmpty)
        #expect(agenda.timeZones.map(\.id) == ["Taipei Standard Time", "Customized Time Zone"])
        let review = agenda.items[0]
        // UIDs folded with a tab unfold to one value.
        #expect(review.uid == "040000008200E00074C5B7101A82E00800000000B0A4E5C3A07BDB01000000000000000010000000D6A7D3B2F3C0E14B9F8E3A4F2D1C0B9A")
        #expect(review.start == .zoned(time("2025-03-12T15:00:00"), zone: "Taipei Standard Time"))
        #expect(review.priority == .medium)
        #expect(review.parameters["SUMMARY"] == [CarriedProperty.Parameter(name: "LANGUAGE", values: ["zh-tw"])])
        #expect(review.notes == "第一季業務檢討\n請準備 Q1 報表。\n")
        #expect(review.location == "會議室 A (12F)")
        #expect(agenda.items[1].priority == .high)
    }

    @Test func appleExport() throws {
        let (agenda, diagnostics, _) = try readFixture("apple-export.ics")
        #expect(diagnostics.isEmpty)
        #expect(agenda.name == "提醒事项")
        let rent = agenda.items[0]
        #expect(rent.kind == .todo)
        #expect(rent.due == .zoned(time("2025-04-05T09:00:00"), zone: "Asia/Shanghai"))
        #expect(rent.priority == .high)
        #expect(rent.geo == Geo(latitude: 31.2304, longitude: 121.4737))
        #expect(rent.alarms.first?.trigger == .absolute(.utc(time("2025-04-05T00:00:00"))))
        #expect(rent.alarms.first?.carried.map(\.name) == ["X-WR-ALARMUID", "UID"])
        let milk = agenda.items[1]
        #expect(milk.isCompleted)
        #expect(milk.priority == .low)
        #expect(milk.completedAt == .utc(time("2025-02-02T10:30:00")))
        let dinner = agenda.items[2]
        #expect(dinner.url == "https://example.com/reservation/12345")
        #expect(dinner.parameters["URL"] == nil)  // VALUE=URI is URL's default type
        // Apple's own definition of Asia/Shanghai (with its 1986–1991 summer time) has no
        // X-LIC-LOCATION, so it is kept and used as given.
        #expect(agenda.timeZones.map(\.id) == ["Asia/Shanghai"])
    }

    @Test func lunarBirthdaysInUTF8AndGB18030() throws {
        let utf8 = try readFixture("lunar-birthdays.ics")
        let gb = try readFixture("lunar-birthdays-gb18030.ics")
        #expect(gb.encoding == "GB18030")
        #expect(gb.diagnostics.map(\.code) == ["charset.converted"])
        #expect(gb.agenda == utf8.agenda)
        #expect(utf8.agenda.items[0].categories == ["生日", "家人"])
        #expect(utf8.agenda.items[0].recurrence?.rules.map(\.description) == ["RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15"])
    }

    @Test func foldsThatSplitACharacterAndCROnlyLines() throws {
        let (agenda, diagnostics, encoding) = try readFixture("split-utf8-fold.ics")
        #expect(diagnostics.isEmpty)
        #expect(encoding == "UTF-8")
        #expect(agenda.items.first?.title == "爸爸生日快樂")
    }

    @Test func brokenLinesAreLocatedAndTheRestIsRead() throws {
        let (agenda, diagnostics, _) = try readFixture("broken.ics")
        #expect(agenda.items.map(\.uid) == ["good-1@example", "bad-date@example", "unclosed@example", "good-2@example"])
        let found = diagnostics.map { "\($0.code)@\($0.location?.line ?? 0)" }
        #expect(found.contains("ics.broken-line@15"))
        #expect(found.contains("ics.invalid-value@13"))
        #expect(found.contains("ics.invalid-rrule@16"))
        #expect(found.contains("ics.unmatched-end@18"))
        #expect(diagnostics.allSatisfy { $0.severity == .warning && $0.location?.file != nil })
        // What could not be read is kept as written, set aside under an X- name.
        #expect(agenda.items[1].carried.map(\.name) == ["X-ALMANAC-INVALID-DTSTART", "X-ALMANAC-INVALID-RRULE"])
        #expect(agenda.items[1].carried.map(\.value) == ["20250230T090000", "FREQ=FORTNIGHTLY"])
    }

    @Test func notACalendarIsAClearError() throws {
        let error = #expect(throws: Diagnostic.self) {
            try ICalendarCodec().decode(CodecInput(bytes: try fixture("not-a-calendar.ics"), fileName: "mail.ics"), context: CodecContext())
        }
        #expect(error?.code == "ics.not-icalendar")
        #expect(error?.location?.line == 1)
        #expect(ICalendarCodec().identify(Probe(prefix: try fixture("not-a-calendar.ics"))) == .no)
        #expect(ICalendarCodec().identify(Probe(prefix: try fixture("apple-export.ics"))) == .yes)
    }

    /// A file read whole and found to be UTF-8 while its format was identified is not detected
    /// and checked again by the reader: only when it is UTF-8 as it stands (no byte order mark,
    /// every byte valid, no zero byte), never for a chosen `--from`; and it reads the same
    /// (items, warnings, encoding) as when the reader checks it itself.
    @Test func identifiedUTF8IsNotCheckedTwice() throws {
        let registry = FormatRegistry([ICalendarCodec()])
        let folder = NSTemporaryDirectory() + "almanac-utf8-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try fixture("lunar-birthdays.ics")
        let cases: [(name: String, bytes: [UInt8], valid: Bool)] = [
            ("plain.ics", plain, true),
            ("bom.ics", [0xEF, 0xBB, 0xBF] + plain, false),
            ("gb18030.ics", try fixture("lunar-birthdays-gb18030.ics"), false),
            ("folded.ics", try fixture("split-utf8-fold.ics"), false),
            ("google.ics", try fixture("google-export.ics"), true),
        ]
        for (name, bytes, valid) in cases {
            let path = folder + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let opened = try registry.open(.file(path), codec: nil)
            #expect(opened.input.isValidUTF8 == valid, "\(name)")
            #expect(try registry.open(.file(path), codec: ICalendarCodec()).input.isValidUTF8 == false)
            let shortcut = try ICalendarCodec().decode(opened.input, context: CodecContext())
            let checked = try ICalendarCodec().decode(CodecInput(bytes: bytes, fileName: path), context: CodecContext())
            #expect(shortcut.document == checked.document, "\(name)")
            #expect(shortcut.diagnostics == checked.diagnostics, "\(name)")
            #expect(shortcut.encoding == checked.encoding, "\(name)")
        }
    }

    /// BEGIN and END lines of known components are read without making a property; folded (which
    /// takes them the general way) they read the same: random mixes of case, parameters, unknown
    /// and cut names, groups, nesting mistakes and stray lines give the same items, calendar and
    /// warnings (codes and arguments, a line number n of the plain file being 2n − 1 in the
    /// folded one, where every line takes two).
    @Test func componentLinesReadAsProperties() throws {
        let pool = ["BEGIN:VEVENT", "begin:vevent", "Begin:VEvent", "END:VEVENT", "end:vevent", "BEGIN:VTODO", "END:VTODO",
                    "BEGIN:VALARM", "END:valarm", "BEGIN;X-A=1:VALARM", "BEGIN:X-THING", "END:X-THING", "BEGIN:VEVENT ",
                    "END:", "BEGIN:", "ITEM1.BEGIN:VEVENT", "BEGINX:VEVENT", "ENDS:VEVENT", "BEGIN:VEVENTS", "SUMMARY:媽媽",
                    "UID:1", "DTSTART;VALUE=DATE:20250101", "ACTION:DISPLAY", "TRIGGER:-PT1H", "BEGIN:vtimezone", "TZID:X", "END:VTIMEZONE"]
        var generator = SeededGenerator(seed: 7)
        func text(_ diagnostic: Diagnostic, _ lineNumber: (Int) -> Int) -> String {
            // Numbers are line numbers, but for the count of an item's copies (the lines of the
            // others follow it, as a list).
            var arguments = diagnostic.message.arguments
            if diagnostic.code == .icsRevisions, arguments.count == 2 {
                arguments[1] = arguments[1].components(separatedBy: ", ").map { Int($0).map { String(lineNumber($0)) } ?? $0 }.joined(separator: ", ")
                return "\(diagnostic.code) \(arguments)"
            }
            return "\(diagnostic.code) \(arguments.map { Int($0).map { String(lineNumber($0)) } ?? $0 })"
        }
        func read(_ lines: [String], lineNumber: (Int) -> Int = { $0 }) -> (items: [CalendarItem], agenda: Agenda?, warnings: [String]) {
            do {
                let result = try ICalendarReader().read(Array(lines.joined(separator: "\r\n").utf8), fileName: "x")
                return (result.agenda.items, result.agenda, result.diagnostics.map { text($0, lineNumber) })
            } catch {
                return ([], nil, [text(error, lineNumber)])
            }
        }
        for _ in 0..<400 {
            let body = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
            let lines = ["BEGIN:VCALENDAR"] + body + (Bool.random(using: &generator) ? ["END:VCALENDAR", ""] : [""])
            // Every line folded after its first byte: none is read the short way.
            let folded = lines.map { $0.count > 1 ? String($0.prefix(1)) + "\r\n " + $0.dropFirst() : $0 }
            let plain = read(lines, lineNumber: { 2 * $0 - 1 })
            let general = read(folded)
            #expect(plain.items == general.items, "\(lines)")
            #expect(plain.agenda == general.agenda, "\(lines)")
            #expect(plain.warnings == general.warnings, "\(lines)")
        }
    }

    /// Properties with no parameters are mapped from their values' bytes
    /// (`ICalEvents.plainProperty`): random items of such lines — repeated, misspelt dates and
    /// impossible days, escapes, rules and category lists met again or broken, folded or not,
    /// in an alarm or at the calendar's level — read as when every line is made a property first.
    @Test func plainPropertiesReadAsProperties() throws {
        /// Hands the reader every line as a property (`general`), or offers it plain lines first
        /// and counts those it takes.
        struct Events: ICalEvents {
            var inner: ReaderEvents
            let general: Bool
            var taken = 0
            mutating func begin(_ name: String, line: Int) throws(Diagnostic) { try inner.begin(name, line: line) }
            mutating func property(_ property: ICalProperty) throws(Diagnostic) { try inner.property(property) }
            mutating func end(_ name: String, line: Int) throws(Diagnostic) { try inner.end(name, line: line) }
            mutating func plainProperty(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters) -> Bool {
                guard !general, inner.plainProperty(kind, value, parameters) else { return false }
                taken += 1
                return true
            }
        }
        let pool = ["UID:a@x", "uid:b@x", "UID:", "SUMMARY:媽媽生日", "SUMMARY:a\\,b\\nc\\", "Summary:x\\q", "SUMMARY:",
                    "DESCRIPTION:記得\\;訂蛋糕\\N", "LOCATION:台北", "LOCATION;LANGUAGE=zh:台北",
                    "DTSTART:20250305", "DTSTART:20250305T120000", "DTSTART:20250305T120000Z", "dtstart:20250230",
                    "DTSTART:2025-03-05", "DTSTART:20250305t120000z", "DTSTART;VALUE=DATE:20250305", "DTEND:20250306T130000Z", "DTSTART;TZID=America/New_York:20250305T120000",
                    "dtstart;tzid=Asia/Taipei;value=date-time:20250305T120000", "DTSTART;VALUE=DATE:20250305T120000",
                    "DTSTART;VALUE=DATE-TIME:20250305", "DTSTART;VALUE=PERIOD:20250305", "DTSTART;TZID=:20250305T120000",
                    "DTSTART;TZID=\"Taipei Standard Time\":20250305T120000", "DTEND;TZID=A;TZID=B:20250305T120000",
                    "DTEND;VALUE=DATE;VALUE=DATE:20250305", "DTEND;X-A=1:20250305", "DTEND;TZID=a,b:20250305T120000",
                    "DUE;;VALUE=DATE:20250305", "DUE;VALUE=DATE:20250230", "DUE;TZID=Asia/Taipei:20250305T120000Z",
                    "DTSTAMP;TZID=Asia/Taipei:20250305T120000", "DTSTART;TZID=X^nY:20250305T120000", "DTSTART;VALUE=dAtE:20250305",
                    "DUE:20251301", "COMPLETED:20250101T000000Z", "CREATED:20250101T000000", "LAST-MODIFIED:20250101T000000Z",
                    "DTSTAMP:20250305T120000Z", "DTSTAMP:99999999", "RRULE:FREQ=YEARLY", "RRULE:FREQ=MONTHLY;BYMONTHDAY=5;COUNT=24",
                    "RRULE:FREQ=SOMETIMES", "RRULE:RRULE:X;FREQ=WEEKLY", "CATEGORIES:生活", "CATEGORIES:a\\,b,c", "CATEGORIES:",
                    "STATUS:confirmed", "PRIORITY:3", "X-THING:1", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "END:VALARM"]
        var generator = SeededGenerator(seed: 5545)
        func read(_ bytes: [UInt8], general: Bool) throws -> (items: [CalendarItem], agenda: Agenda, diagnostics: [Diagnostic], taken: Int) {
            var parser = ICalParser(fileName: "x")
            var items: [CalendarItem] = []
            var events = Events(inner: ReaderEvents(mapper: ItemMapper(fileName: "x"), applyCalendarZone: true, onFrame: { _ in }) { (item) throws(Diagnostic) in
                items.append(item)
            }, general: general)
            try parser.parse(bytes, into: &events)
            return (items, events.inner.agenda, parser.diagnostics + events.inner.mapper.diagnostics, events.taken)
        }
        var taken = 0
        for _ in 0..<300 {
            var lines = ["BEGIN:VCALENDAR", "X-WR-TIMEZONE:Asia/Taipei"] + pool.shuffled(using: &generator).prefix(3)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                lines.append(["BEGIN:VEVENT", "BEGIN:VTODO", "BEGIN:VJOURNAL"].randomElement(using: &generator)!)
                lines += (0..<Int.random(in: 0...14, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
                lines.append("END:" + lines.last { $0.hasPrefix("BEGIN:V") && $0 != "BEGIN:VALARM" }!.dropFirst(6))
            }
            lines.append("END:VCALENDAR")
            // Some lines folded (inside a character too): a folded line is read from a copy.
            let text = lines.map { line in
                guard line.utf8.count > 6, Int.random(in: 0..<4, using: &generator) == 0 else { return line }
                let bytes = Array(line.utf8)
                let at = Int.random(in: 5..<bytes.count, using: &generator)
                return String(decoding: bytes[..<at] + Array("\r\n ".utf8) + bytes[at...], as: UTF8.self)
            }.joined(separator: "\r\n")
            let bytes = Array(text.utf8)
            let plain = try read(bytes, general: false)
            let general = try read(bytes, general: true)
            #expect(plain.items == general.items, "\(text)")
            #expect(plain.agenda == general.agenda, "\(text)")
            #expect(plain.diagnostics == general.diagnostics, "\(text)")
            #expect(general.taken == 0)
            taken += plain.taken
        }
        #expect(taken > 1_000)
    }

    /// An item without a UID gets the same one every time it is read, also when several of its
    /// mapped properties have parameters that no field holds (they are kept in a dictionary,
    /// whose own order differs between two equal ones).
    @Test func generatedUIDsAreTheSameEveryTime() throws {
        let text = """
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY;LANGUAGE=zh-TW:媽媽生日\r\nLOCATION;LANGUAGE=zh-TW:台北\r\n\
            DESCRIPTION;ALTREP="cid:x":記得\r\nDTSTART;X-A=1:20250305\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        var uids: Set<String> = []
        for _ in 0..<40 {
            let item = try ICalendarReader().read(Array(text.utf8), fileName: "x").agenda.items[0]
            #expect(item.parameters.count == 4)
            uids.insert(item.uid)
        }
        #expect(uids.count == 1, "\(uids)")
        #expect(uids.first?.hasPrefix("almanac-") == true)
    }

    /// Identification reads the first characters as bytes when they are ASCII: the answer is the
    /// one the characters give (leading white space of any kind, `BEGIN:` in any case, the name's
    /// letters uppercased, 64 characters at most), for random starts of files.
    @Test func identificationByBytesAnswersAsByCharacters() {
        func byCharacters(_ probe: Probe) -> Identification {
            let text = probe.trimmedText.prefix(64).uppercased()
            guard text.hasPrefix("BEGIN:") else { return .no }
            let name = text.dropFirst(6).prefix { $0.isLetter }
            return name == "VCALENDAR" || ICalParser.bareNames.contains(String(name)) ? .yes : .no
        }
        let pieces = ["BEGIN:", "begin:", "Begin:", "VCALENDAR", "vcalendar", "VEVENT", "VTODO", "VALARM", "VCARD", "\r\n", " ", "\t",
                      "\u{3000}", "\u{A0}", "X", "é", "\u{301}", "ı", "BEGİN:", ":", "1", "\u{FEFF}", String(repeating: "A", count: 60)]
        var generator = SeededGenerator(seed: 64)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let probe = Probe(prefix: Array(text.utf8))
            #expect(ICalendarCodec().identify(probe) == byCharacters(probe), "\(text.debugDescription)")
        }
    }

    /// `expand` asks for `.schedule`: once an item's UID is read, what does not place it in time
    /// (descriptions, alarms, attendees, X- properties) goes unread; a to-do's estimated duration,
    /// which is its duration, is still read; an item without a UID is read whole (its generated
    /// UID is made from everything in it).
    @Test func scheduleDetailSkipsWhatDoesNotPlaceItemsInTime() throws {
        let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:a@example.org\r
        DTSTART;TZID=Asia/Taipei:20250305T090000\r
        DESCRIPTION:Notes\r
        ATTENDEE;CN=Mei:mailto:mei@example.org\r
        LOCATION:Taipei\r
        SUMMARY:Stand-up\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        GEO:not a place\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        DTEND;TZID=Asia/Taipei:20250305T093000\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:b@example.org\r
        DUE:20250306T100000Z\r
        X-ALMANAC-ESTIMATED-DURATION:PT2H\r
        CATEGORIES:Work\r
        END:VTODO\r
        BEGIN:VEVENT\r
        DESCRIPTION:No UID here\r
        DTSTART:20250307\r
        SUMMARY:Holiday\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
        func read(_ detail: ItemDetail) throws -> (agenda: Agenda, diagnostics: [Diagnostic]) {
            let result = try ICalendarReader(options: .init(itemDetail: detail)).read(Array(text.utf8), fileName: "t.ics")
            return (result.agenda, result.diagnostics)
        }
        let complete = try read(.complete)
        let schedule = try read(.schedule)
        #expect(complete.agenda.items.count == 3 && schedule.agenda.items.count == 3)
        for (whole, lean) in zip(complete.agenda.items, schedule.agenda.items) {
            #expect(lean.kind == whole.kind && lean.uid == whole.uid && lean.title == whole.title)
            #expect(lean.start == whole.start && lean.end == whole.end && lean.due == whole.due && lean.duration == whole.duration)
            #expect(lean.recurrence == whole.recurrence && lean.recurrenceID == whole.recurrenceID)
        }
        let event = schedule.agenda.items[0]
        #expect(event.notes == nil && event.location == nil && event.geo == nil)
        #expect(event.alarms.isEmpty && event.carried.isEmpty && event.carriedComponents.isEmpty)
        #expect(complete.agenda.items[0].alarms.count == 1 && complete.agenda.items[0].notes == "Notes")
        #expect(schedule.agenda.items[1].duration == "PT2H" && schedule.agenda.items[1].categories.isEmpty)
        // Read whole: the same generated UID, the same fields.
        #expect(schedule.agenda.items[2] == complete.agenda.items[2])
        #expect(schedule.agenda.items[2].uid.hasPrefix("almanac-"))
        // What was skipped gives no warning (the bad GEO); what was read gives the same ones.
        #expect(complete.diagnostics.map(\.code).contains("ics.invalid-value"))
        #expect(schedule.diagnostics.map(\.code) == complete.diagnostics.map(\.code).filter { $0 != "ics.invalid-value" })
    }

    /// `.schedule` gives the same times, rules and titles as `.complete` for the real exports kept as fixtures.
    @Test(arguments: ["google-export.ics", "apple-export.ics", "outlook-export.ics", "rules-sampler.ics", "lunar-birthdays.ics",
                      "bench-300.ics"])
    func scheduleDetailKeepsTimesOfRealExports(name: String) throws {
        let bytes = try fixture(name)
        let whole = try ICalendarReader().read(bytes, fileName: name).agenda
        let lean = try ICalendarReader(options: .init(itemDetail: .schedule)).read(bytes, fileName: name).agenda
        #expect(whole.items.count == lean.items.count)
        for (a, b) in zip(whole.items, lean.items) {
            #expect(a.kind == b.kind && a.uid == b.uid && a.title == b.title && a.start == b.start && a.end == b.end, "\(a.uid)")
            #expect(a.due == b.due && a.duration == b.duration && a.recurrence == b.recurrence, "\(a.uid)")
            #expect(a.recurrenceID == b.recurrenceID && a.recurrenceThisAndFuture == b.recurrenceThisAndFuture, "\(a.uid)")
        }
        #expect(whole.timeZones == lean.timeZones)
    }

    @Test func estimatedDurationNameIsTheCarriedOne() {
        #expect("\(ReaderEvents.estimatedDuration)" == CarriedName.estimatedDuration)
    }

    @Test func limits() {
        let long = "BEGIN:VCALENDAR\r\nX-A:" + String(repeating: "x", count: 2000) + "\r\nEND:VCALENDAR\r\n"
        let reader = ICalendarReader(options: .init(limits: ICalLimits(maxLineBytes: 1000)))
        let error = #expect(throws: Diagnostic.self) { try reader.read(Array(long.utf8), fileName: "long.ics") }
        #expect(error?.code == "ics.line-too-long")
        let deep = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 50) + "END:VCALENDAR\r\n"
        #expect(throws: Diagnostic.self) { try ICalendarReader().read(Array(deep.utf8), fileName: "deep.ics") }
    }
}
