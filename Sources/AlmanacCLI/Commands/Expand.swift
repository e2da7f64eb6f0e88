import ArgumentParser
import AlmanacBytes
import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

struct Expand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "expand", abstract: L("cli.expand.abstract"), discussion: L("cli.expand.discussion"))
    }

    @Argument(help: ArgumentHelp(L("cli.argument.calendar"), valueName: "FILE")) var file: String
    @Option(help: ArgumentHelp(L("cli.option.from-date"), valueName: "YYYY-MM-DD")) var from: String?
    @Option(help: ArgumentHelp(L("cli.option.until-date"), valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: ArgumentHelp(L("cli.option.limit"), valueName: "N")) var limit = 10_000
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L("cli.option.json"))) var json = false
    @OptionGroup var global: GlobalOptions


    func run() throws {
        let session = Session.current!
        let context = try reading.context()
        let locale = context.locale ?? session.language.locale
        let zone = context.readingZone
        let loaded: (codec: any Codec, basis: FormatRegistry.Basis, decoded: Decoded)
        do { loaded = try session.registry.load(session.input(file), codec: nil, context: context) } catch {
            throw CommandFailure(.inputError, [error.inFile(file)])
        }
        guard case .agenda(let agenda) = loaded.decoded.document else {
            throw CommandFailure(.inputError, [.error("convert.model-mismatch", loaded.decoded.document.kind.rawValue, "expand", "agenda")])
        }
        let today = zone.wallTime(at: Date()).date
        let fromDate = try from.map(Arguments.date) ?? today
        let untilDate = try until.map(Arguments.date) ?? fromDate.adding(days: 365)
        guard fromDate < untilDate else { throw CommandFailure.usage(.error("expand.empty-window", fromDate.description, untilDate.description)) }
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: zone, definitions: session.registry.timeZoneDefinitionReader)
        let fromInstant = (try? zone.instant(for: CivilDateTime(date: fromDate))) ?? Date()
        let untilInstant = (try? zone.instant(for: CivilDateTime(date: untilDate))) ?? Date()
        let (occurrences, diagnostics) = expander.occurrences(from: fromInstant, until: untilInstant, limit: limit)
        for diagnostic in loaded.decoded.diagnostics + diagnostics.map({ $0.inFile(file) }) { session.report(diagnostic) }

        let script = ChineseScript(locale: locale)
        // The lunar date of an occurrence of a lunar rule (繁/简 as the locale writes them).
        func lunar(_ occurrence: Occurrence) -> String? {
            guard agenda.items[occurrence.itemIndex].recurrence?.rules.contains(where: \.isLunar) == true else { return nil }
            let day = occurrence.isAllDay ? occurrence.start.day : zone.wallTime(at: occurrence.startInstant).date
            return ChineseCalendar.lunarDate(for: day).written(script)
        }
        if json {
            writeJSON(occurrences, agenda: agenda, lunar: lunar, to: session)
            return
        }
        let dateFormat = try DateFormat(skeleton: "yMMMEd", locale: locale, timeZone: zone)
        let timeFormat = try DateFormat(skeleton: "jm", locale: locale, timeZone: zone)
        let allDay = session.text("expand.all-day")
        let table = occurrences.map { occurrence -> [String] in
            let when: [String] = occurrence.isAllDay
                ? [dateFormat.string(from: occurrence.start.day), allDay]
                : [dateFormat.string(from: occurrence.startInstant), timeFormat.string(from: occurrence.startInstant)]
            let title = agenda.items[occurrence.itemIndex].title
            return when + [title + (lunar(occurrence).map { "（\($0)）" } ?? "") + (occurrence.isOverridden ? " *" : "")]
        }
        // Written in blocks, not a write per line.
        var block = ""
        for line in TextTable.render(table) {
            block += line.trimmingTrailingSpaces()
            block += "\n"
            if block.utf8.count > Self.block {
                session.write(Array(block.utf8))
                block = ""
            }
        }
        if !block.isEmpty { session.write(Array(block.utf8)) }
        if occurrences.isEmpty { session.print(session.text("expand.none", fromDate.description, untilDate.description)) }
    }

    /// Bytes gathered before a write to standard output.
    static let block = 1 << 20

    /// The occurrences as JSON, written as they are laid out (an array of objects with sorted keys,
    /// Almanac's model layout), a block at a time: `uid`, `title`, `start`, `end`, `startUTC` (the
    /// instant in UTC), `allDay`, `overridden`, and `lunar` for lunar rules.
    func writeJSON(_ occurrences: [Occurrence], agenda: Agenda, lunar: (Occurrence) -> String?, to session: Session) {
        var writer = JSONWriter(layout: .foundation, capacity: Self.block + 4096)
        writer.beginArray()
        for occurrence in occurrences {
            writer.beginObject()
            writer.key("allDay")
            writer.bool(occurrence.isAllDay)
            if let end = occurrence.end {
                writer.key("end")
                writer.string(end.description)
            }
            if let lunar = lunar(occurrence) {
                writer.key("lunar")
                writer.string(lunar)
            }
            writer.key("overridden")
            writer.bool(occurrence.isOverridden)
            writer.key("start")
            writer.string(occurrence.start.description)
            writer.key("startUTC")
            writer.string(CivilDateTime(secondsSinceEpoch: Int(occurrence.startInstant.timeIntervalSince1970.rounded(.down))).description + "Z")
            writer.key("title")
            writer.string(agenda.items[occurrence.itemIndex].title)
            writer.key("uid")
            writer.string(occurrence.uid)
            writer.endObject()
            if writer.byteCount > Self.block { session.write(writer.take()) }
        }
        writer.endArray()
        writer.raw("\n")
        session.write(writer.take())
    }
}
