import ArgumentParser
import AlmanacBytes
import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

struct Expand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "expand", abstract: L(.cliExpandAbstract), discussion: L(.cliExpandDiscussion))
    }

    @Argument(help: ArgumentHelp(L(.cliArgumentCalendar), valueName: "FILE"), completion: .file()) var file: String
    @Option(help: ArgumentHelp(L(.cliOptionFromDate), valueName: "YYYY-MM-DD")) var from: String?
    @Option(help: ArgumentHelp(L(.cliOptionUntilDate), valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: ArgumentHelp(L(.cliOptionLimit), valueName: "N")) var limit = 10_000
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L(.cliOptionJson))) var json = false
    @OptionGroup var global: GlobalOptions


    func run() throws {
        let session = Session.current!
        var context = try reading.context()
        let locale = context.locale ?? session.language.locale
        let zone = context.readingZone
        let today = zone.wallTime(at: Date()).date
        let fromDate = try from.map(Arguments.date) ?? today
        let untilDate = try until.map(Arguments.date) ?? fromDate.adding(days: 365)
        guard fromDate < untilDate else { throw CommandFailure.usage(.error(.expandEmptyWindow(from: fromDate.description, until: untilDate.description))) }
        let window = (from: (try? zone.instant(for: CivilDateTime(date: fromDate))) ?? Date(),
                      until: (try? zone.instant(for: CivilDateTime(date: untilDate))) ?? Date())

        let input = session.input(file)
        let opened: (codec: any Codec, input: CodecInput)
        do { opened = try session.registry.openIdentified(input, codec: nil).opened } catch {
            throw CommandFailure(.inputError, [error.inFile(file)])
        }
        context.sourceFile = input.path
        if context.timeZoneDefinitions == nil { context.timeZoneDefinitions = session.registry.timeZoneDefinitionReader }
        let calendar: ExpandedCalendar
        do {
            calendar = try CalendarExpansion(from: window.from, until: window.until, limit: limit)
                .occurrences(in: opened.input, codec: opened.codec, context: context)
        } catch {
            throw CommandFailure(.inputError, [error.inFile(file)])
        }
        for diagnostic in calendar.diagnostics { session.report(diagnostic.inFile(file)) }

        let script = ChineseScript(locale: locale)
        // The lunar date of an occurrence of a lunar rule (繁/简 as the locale writes them).
        func lunar(_ occurrence: ExpandedOccurrence) -> String? {
            guard occurrence.repeatsByLunarRule else { return nil }
            let day = occurrence.isAllDay ? occurrence.start.day : zone.wallTime(at: occurrence.startInstant).date
            return ChineseCalendar.lunarDate(for: day).written(script)
        }
        if json {
            writeJSON(calendar, lunar: lunar, to: session)
            return
        }
        let dateFormat = try DateFormat(skeleton: "yMMMEd", locale: locale, timeZone: zone)
        let timeFormat = try DateFormat(skeleton: "jm", locale: locale, timeZone: zone)
        let allDay = session.text(.expandAllDay)
        // A day or a time of day is formatted once: occurrences share a few hundred days and times.
        var days: [CivilDate: String] = [:]
        var times: [Int: String] = [:]
        let table = calendar.map { occurrence -> [String] in
            let when: [String]
            if occurrence.isAllDay {
                let day = occurrence.start.day
                let text = days[day] ?? dateFormat.string(from: day)
                days[day] = text
                when = [text, allDay]
            } else {
                let wall = zone.wallTime(at: occurrence.startInstant)
                let day = days[wall.date] ?? dateFormat.string(from: occurrence.startInstant)
                days[wall.date] = day
                let minute = wall.hour * 60 + wall.minute
                let time = times[minute] ?? timeFormat.string(from: occurrence.startInstant)
                times[minute] = time
                when = [day, time]
            }
            return when + [occurrence.title + (lunar(occurrence).map { "（\($0)）" } ?? "") + (occurrence.isOverridden ? " *" : "")]
        }
        session.printLines(TextTable.render(table).lazy.map { $0.trimmingTrailingSpaces() })
        if calendar.isEmpty { session.print(session.text(.expandNone(from: fromDate.description, until: untilDate.description))) }
    }

    /// The occurrences as JSON, written as they are laid out (an array of objects with sorted keys,
    /// Almanac's model layout), a block at a time: `uid`, `title`, `start`, `end`, `startUTC` (the
    /// instant in UTC), `allDay`, `overridden`, and `lunar` for lunar rules.
    func writeJSON(_ calendar: ExpandedCalendar, lunar: (ExpandedOccurrence) -> String?, to session: Session) {
        var writer = JSONWriter(layout: .foundation, capacity: Session.block + 4096)
        writer.beginArray()
        for index in calendar.indices {
            Self.write(calendar[index], lunar: lunar, to: &writer)
            if writer.byteCount > Session.block { session.write(writer.take()) }
        }
        writer.endArray()
        writer.raw("\n")
        session.write(writer.take())
    }

    /// One occurrence's object, read where it lies in the array (a copy retained and released its strings).
    private static func write(_ found: borrowing ExpandedOccurrence, lunar: (ExpandedOccurrence) -> String?, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("allDay")
        writer.bool(found.isAllDay)
        if let end = found.end {
            writer.key("end")
            writer.string(end)
        }
        if found.repeatsByLunarRule, let lunar = lunar(copy found) {
            writer.key("lunar")
            writer.string(lunar)
        }
        writer.key("overridden")
        writer.bool(found.isOverridden)
        writer.key("start")
        writer.string(found.start)
        writer.key("startUTC")
        writer.string(CivilDateTime(secondsSinceEpoch: Int(found.startSeconds.rounded(.down))), suffix: "Z")
        writer.key("title")
        writer.string(found.title)
        writer.key("uid")
        writer.string(found.uid)
        writer.endObject()
    }
}
