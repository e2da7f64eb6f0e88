import AlmanacBackups
import AlmanacCalendar
import AlmanacCore
import AlmanacICalendar
import AlmanacICU
import Foundation
import Testing

/// `CalendarExpansion`, the engine behind `almanac expand`, used as a library: a calendar expanded
/// as it streams gives the occurrences of the same calendar read whole and expanded in memory.
@Suite struct CalendarExpansionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../AlmanacICalendarTests/Fixtures").standardized.path

    /// Every .ics fixture (Google, Outlook, Apple exports; the public test suites' calendars with
    /// late overrides, revisions and zones defined at the end).
    static var calendars: [String] {
        let files = FileManager.default.enumerator(atPath: fixtures)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".ics") && !$0.hasPrefix("fuzz") }.sorted()
    }

    struct Listed: Equatable, CustomStringConvertible {
        var start: String, end: String?, uid: String, title: String, overridden: Bool, lunar: Bool
        init(_ occurrence: ExpandedOccurrence) {
            start = occurrence.start.description
            end = occurrence.end?.description
            uid = occurrence.uid
            title = occurrence.title
            overridden = occurrence.isOverridden
            lunar = occurrence.repeatsByLunarRule
        }
        var description: String { "\(start) \(uid) \(title)\(overridden ? " *" : "")" }
    }

    @Test func streamedMatchesWhole() throws {
        let zone = TimeZoneID.taipei
        let expansion = CalendarExpansion(from: try zone.instant(for: CivilDateTime(date: CivilDate(year: 2020, month: 1, day: 1))),
                                          until: try zone.instant(for: CivilDateTime(date: CivilDate(year: 2031, month: 1, day: 1))),
                                          limit: 500)
        var context = CodecContext()
        context.timeZone = zone
        context.timeZoneDefinitions = ICalendarCodec()
        var compared = 0
        for name in Self.calendars {
            let input = CodecInput(contentsOf: Self.fixtures + "/" + name)
            guard let streamed = try? expansion.occurrences(in: input, codec: ICalendarCodec(), context: context) else { continue }
            // Read whole with every detail: SEQUENCE and DTSTAMP tell revisions apart.
            guard case .agenda(let agenda)? = try? ICalendarCodec().decode(input, context: context).document else {
                Issue.record("\(name): streamed, but not read whole")
                continue
            }
            let inMemory = expansion.occurrences(of: agenda, defaultZone: zone, definitions: ICalendarCodec())
            #expect(streamed.map(Listed.init) == inMemory.map(Listed.init), "\(name)")
            compared += 1
        }
        #expect(compared > 100)
    }

    /// The occurrences come sorted by start, then UID, whatever order the file has them in.
    @Test func sortedByStartThenUID() throws {
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:b\r
            DTSTART;VALUE=DATE:20260102\r
            SUMMARY:B\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:c\r
            DTSTART;VALUE=DATE:20260101\r
            SUMMARY:C\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTART;VALUE=DATE:20260102\r
            SUMMARY:A\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let expansion = CalendarExpansion(from: Date(timeIntervalSince1970: 1_767_000_000), until: Date(timeIntervalSince1970: 1_770_000_000))
        let calendar = try expansion.occurrences(in: CodecInput(bytes: Array(text.utf8)), codec: ICalendarCodec(), context: CodecContext())
        #expect(calendar.map(\.title) == ["C", "A", "B"])
        #expect(calendar.diagnostics.isEmpty)
    }

    /// A format that holds no calendar is refused, naming the data it holds.
    @Test func notACalendar() throws {
        let expansion = CalendarExpansion(from: Date(timeIntervalSince1970: 0), until: Date(timeIntervalSince1970: 86_400))
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/jellysave-backup.json").standardized.path
        let codec = try #require(BackupCodec(id: "jellysave-backup"))
        let error = #expect(throws: Diagnostic.self) {
            try expansion.occurrences(in: CodecInput(contentsOf: example), codec: codec, context: CodecContext())
        }
        #expect(error?.code == .convertModelMismatch)
    }
}
