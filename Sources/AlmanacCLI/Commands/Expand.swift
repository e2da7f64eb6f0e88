import ArgumentParser
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

    struct Row: Encodable {
        var uid: String
        var title: String
        var start: DateValue
        var end: DateValue?
        var startUTC: String
        var allDay: Bool
        var overridden: Bool
        var lunar: String?
    }

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
        let rows = occurrences.map { occurrence -> Row in
            let item = agenda.items[occurrence.itemIndex]
            let lunarRule = item.recurrence?.rules.contains(where: \.isLunar) ?? false
            let day = occurrence.isAllDay ? occurrence.start.day : zone.wallTime(at: occurrence.startInstant).date
            return Row(uid: occurrence.uid, title: item.title, start: occurrence.start, end: occurrence.end,
                       startUTC: ISO8601DateFormatter().string(from: occurrence.startInstant),
                       allDay: occurrence.isAllDay, overridden: occurrence.isOverridden,
                       lunar: lunarRule ? ChineseCalendar.lunarDate(for: day).written(script) : nil)
        }
        if json {
            session.write(try CanonicalJSON.encode(rows))
            return
        }
        let dateFormat = try DateFormat(skeleton: "yMMMEd", locale: locale, timeZone: zone)
        let timeFormat = try DateFormat(skeleton: "jm", locale: locale, timeZone: zone)
        let allDay = session.text("expand.all-day")
        let table = zip(occurrences, rows).map { occurrence, row -> [String] in
            let when: [String] = occurrence.isAllDay
                ? [dateFormat.string(from: occurrence.start.day), allDay]
                : [dateFormat.string(from: occurrence.startInstant), timeFormat.string(from: occurrence.startInstant)]
            return when + [row.title + (row.lunar.map { "（\($0)）" } ?? "") + (row.overridden ? " *" : "")]
        }
        for line in TextTable.render(table) { session.print(line.trimmingTrailingSpaces()) }
        if occurrences.isEmpty { session.print(session.text("expand.none", fromDate.description, untilDate.description)) }
    }
}
