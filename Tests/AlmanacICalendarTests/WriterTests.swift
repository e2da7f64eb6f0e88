@testable import AlmanacICalendar
@testable import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

@Suite struct WriterTests {
    static let fixtures = ["google-export.ics", "outlook-export.ics", "apple-export.ics", "lunar-birthdays.ics",
                           "lunar-birthdays-gb18030.ics", "split-utf8-fold.ics", "broken.ics"]

    @Test(arguments: fixtures)
    func roundTripKeepsTheModel(name: String) throws {
        let original = try readFixture(name).agenda
        let written = try write(original)
        #expect(try reread(written) == original)
        // Deterministic: the same model gives the same bytes.
        #expect(try write(try reread(written)) == written)
    }

    @Test(arguments: fixtures)
    func outputFollowsRFC5545(name: String) throws {
        let text = String(decoding: try write(try readFixture(name).agenda), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.last == "")
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        for line in lines {
            #expect(line.utf8.count <= 75, "\(line)")
            // Every physical line is whole UTF-8: no character is split by a fold.
            #expect(String(validatingCString: Array(line.utf8CString)) != nil)
        }
        // The PRODID of the product that made the calendar (ExportQuirksTests), or Almanac's.
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        let events = unfolded.components(separatedBy: "BEGIN:VEVENT").count - 1 + unfolded.components(separatedBy: "BEGIN:VTODO").count - 1
        #expect(unfolded.components(separatedBy: "\r\nUID:").count - 1 >= events)
        #expect(unfolded.components(separatedBy: "\r\nDTSTAMP:").count - 1 == events)
        // A VTIMEZONE for every TZID used.
        for tzid in Set(unfolded.matches(of: /TZID=("[^"]+"|[^:;]+)/).map { String($0.1).trimmingCharacters(in: "\"") }) {
            #expect(unfolded.contains("BEGIN:VTIMEZONE\r\nTZID:\(tzid)\r\n"), "\(tzid)")
        }
    }

    @Test func unknownPropertiesAndParametersSurvive() throws {
        let text = String(decoding: try write(try readFixture("apple-export.ics").agenda), as: UTF8.self)
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE=外滩:geo:31.2400,121.4900"))
        #expect(text.contains("X-APPLE-CALENDAR-COLOR:#34AADC"))
        #expect(text.contains("URL:https://example.com/reservation/12345"))
        #expect(text.contains("PERCENT-COMPLETE:100"))
    }

    @Test func foldingNeverSplitsACharacter() throws {
        let title = String(repeating: "記得提前訂蛋糕；地點：台北101，", count: 8)
        let agenda = Agenda(items: [CalendarItem(uid: "fold", title: title, start: .date(try CivilDate(year: 2025, month: 3, day: 5)))])
        let bytes = try write(agenda)
        let physical = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let summary = physical.drop { !$0.hasPrefix("SUMMARY:") }.prefix { $0.hasPrefix("SUMMARY:") || $0.hasPrefix(" ") }
        #expect(summary.count > 5)
        #expect(summary.allSatisfy { $0.utf8.count <= 75 })
        #expect(try reread(bytes).items[0].title == title)
    }

    /// Folding copies pieces whole: the same lines as the rule written plainly (a character at a
    /// time, a fold before one that would pass 75 octets), for random lines of ASCII, CJK and emoji.
    @Test func foldingMatchesThePlainRule() {
        func plain(_ line: String) -> [UInt8] {
            var output: [UInt8] = []
            var width = 0
            for character in line.unicodeScalars {
                let bytes = Array(String(character).utf8)
                if width + bytes.count > 75 {
                    output += [0x0D, 0x0A, 0x20]
                    width = 1
                }
                output += bytes
                width += bytes.count
            }
            return output + [0x0D, 0x0A]
        }
        var random = SeededGenerator(seed: 75)
        let pieces = ["a", "SUMMARY:", " ", "記", "é", "🎉", "x;y", "\\n"]
        for _ in 0..<3_000 {
            let line = (0..<Int.random(in: 0...90, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var folded: [UInt8] = []
            ContentLineWriter.appendFolded(line, to: &folded)
            #expect(folded == plain(line), "\(line)")
        }
    }

    @Test func textEscaping() {
        #expect(PropertyText.escape("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne")
        #expect(PropertyText.unescape("a\\;b\\,c\\\\d\\ne\\Nf") == "a;b,c\\d\ne\nf")
        #expect(PropertyText.unescape("keep \\x as is") == "keep \\x as is")
        // Against a plain reading of RFC 5545 §3.3.11, on random mixes of escapes, text and CJK.
        func reference(_ text: String) -> String {
            var result = ""
            var characters = Array(text)[...]
            while let character = characters.popFirst() {
                guard character == "\\", let next = characters.first else { result.append(character); continue }
                characters.removeFirst()
                switch next {
                case "n", "N": result.append("\n")
                case "\\", ";", ",", "\"": result.append(next)
                default: result.append(character); result.append(next)
                }
            }
            return result
        }
        var random = SeededGenerator(seed: 5545)
        let pieces = ["\\", "n", "N", ";", ",", "\"", "x", "記", "é", "🎉", " "]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(PropertyText.unescape(text) == reference(text), "\(text)")
            // The form a reader uses on a value's bytes answers the same.
            #expect(Array(text.utf8).withByteView { PropertyText.unescape($0) } == reference(text), "\(text)")
        }
        #expect(PropertyText.splitList("生日,家人\\,朋友, x") == ["生日", "家人,朋友", " x"])
        #expect(PropertyText.splitList("生日,,家人, x,") == ["生日", "", "家人", " x", ""])
        #expect(PropertyText.splitList("") == [""])
        #expect(ContentLineWriter.quoted("Taipei Standard Time") == "Taipei Standard Time")
        #expect(ContentLineWriter.quoted("a:b") == "\"a:b\"")
        #expect(ContentLineWriter.quoted("say \"hi\"\nthere") == "\"say ^'hi^'^nthere\"")
    }

    @Test func durations() throws {
        #expect(try CalendarDuration(parsing: "-P1D").totalSeconds == -86_400)
        #expect(try CalendarDuration(parsing: "PT1H30M").totalSeconds == 5_400)
        #expect(try CalendarDuration(parsing: "P2W").totalSeconds == 1_209_600)
        #expect(try CalendarDuration(parsing: "-P0DT0H10M0S").totalSeconds == -600)
        #expect(CalendarDuration(totalSeconds: -600).description == "-PT10M")
        #expect(CalendarDuration(totalSeconds: 0).description == "PT0S")
        #expect(CalendarDuration(totalSeconds: 90_000).description == "P1DT1H")
        #expect(throws: ICUError.self) { try CalendarDuration(parsing: "P1H") }
        #expect(throws: ICUError.self) { try CalendarDuration(parsing: "1D") }
        // Letters in either case (some writers lowercase), ASCII digits and letters only.
        #expect(try CalendarDuration(parsing: "+pt15m").totalSeconds == 900)
        #expect(try CalendarDuration(parsing: "p1w").totalSeconds == 604_800)
        for bad in ["P", "-P", "PT", "PT1H2", "PT1Ｈ", "P１D", "PT1H ", "P1D\u{0}", "PTT1H", "P123456789D"] {
            #expect(throws: ICUError.self, "\(bad)") { try CalendarDuration(parsing: bad) }
        }
    }

    @Test func generatedTimeZonesMatchICU() throws {
        let text = VTimeZoneWriter.definition(for: .newYork, id: "America/New_York", years: 2020...2037)
        #expect(text.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
        #expect(text.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"))
        let definition = TimeZoneDefinition(id: "America/New_York", definition: text)
        let clock = try DefinedWallClock(name: definition.id, observances: VTimeZoneReader().observances(of: definition))
        for iso in ["2020-06-01T12:00:00Z", "2025-03-09T06:59:59Z", "2025-03-09T07:00:00Z", "2025-11-02T05:59:59Z",
                    "2025-11-02T06:00:00Z", "2036-12-25T00:00:00Z"] {
            #expect(clock.offset(at: instant(iso)) == TimeZoneID.newYork.offset(at: instant(iso)).totalSeconds, "\(iso)")
        }
        let taipei = VTimeZoneWriter.definition(for: .taipei, id: "Asia/Taipei", years: 2000...2037)
        #expect(taipei.contains("TZOFFSETTO:+0800"))
        #expect(!taipei.contains("DAYLIGHT"))
    }

    @Test func conformance() {
        #expect(CodecConformance.problems(of: ICalendarCodec()) == [])
    }
}

extension String {
    func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
