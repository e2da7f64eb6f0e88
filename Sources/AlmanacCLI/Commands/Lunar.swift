import ArgumentParser
import AlmanacBytes
import AlmanacCore
import AlmanacICU

struct Lunar: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "lunar", abstract: L(.cliLunarAbstract), discussion: L(.cliLunarDiscussion))
    }

    @Argument(help: ArgumentHelp(L(.cliArgumentDates), valueName: "DATE")) var dates: [String]
    @Flag(name: .customLong("to-gregorian"), help: ArgumentHelp(L(.cliOptionToGregorian))) var toGregorian = false
    @Option(help: ArgumentHelp(L(.cliOptionScript), valueName: "hant|hans"), completion: .list(["hant", "hans"])) var script: String?
    @Flag(help: ArgumentHelp(L(.cliOptionJson))) var json = false
    @OptionGroup var global: GlobalOptions

    struct Row {
        var gregorian: String
        var year: Int
        var month: Int
        var leap: Bool
        var day: Int
        var written: String
        var yearName: String
        var zodiac: String
        var source: String
    }

    func run() throws {
        let session = Session.current!
        let script: ChineseScript = switch script?.lowercased() {
        case "hans", "zh-hans", "simplified": .simplified
        case "hant", "zh-hant", "traditional": .traditional
        case nil: session.language == .simplifiedChinese ? .simplified : .traditional
        case let other?: throw CommandFailure.usage(.error(.cliValueChoices(value: other, choices: "hant, hans")))
        }
        var rows: [Row] = []
        var failures: [Diagnostic] = []
        // `-` stands for the dates on standard input, one a line (or separated by spaces).
        var dates: [String] = []
        for argument in self.dates {
            if argument == "-" {
                dates += String(decoding: session.standardInput(), as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            } else {
                dates.append(argument)
            }
        }
        // JSON is written as the dates are converted; the table keeps its rows to size its columns.
        var writer = JSONWriter(layout: .foundation, capacity: json ? Session.block + 4096 : 16)
        if json { writer.beginArray() }
        if !json { rows.reserveCapacity(dates.count) }
        for text in dates {
            do throws(Diagnostic) {
                let gregorian: CivilDate
                if toGregorian {
                    let lunar: LunarDate
                    do { lunar = try LunarDate(iso: text) } catch { throw Diagnostic.error(.lunarInvalid(text: text)) }
                    do { gregorian = try ChineseCalendar.gregorianDate(for: lunar) } catch {
                        throw Diagnostic.error(.lunarNonexistent(date: text))
                    }
                } else {
                    do { gregorian = try CivilDate(iso: text) } catch { throw Diagnostic.error(.dateInvalid(text: text)) }
                }
                let (lunar, source) = ChineseCalendar.lunarDateAndSource(for: gregorian)
                let row = Row(gregorian: gregorian.description, year: lunar.year, month: lunar.month,
                              leap: lunar.isLeapMonth, day: lunar.day, written: lunar.written(script),
                              yearName: lunar.yearName, zodiac: lunar.zodiac(script), source: source.rawValue)
                if json {
                    Self.write(row, into: &writer)
                    if writer.byteCount > Session.block { session.write(writer.take()) }
                } else {
                    rows.append(row)
                }
            } catch {
                failures.append(error)
            }
        }
        if json {
            writer.endArray()
            writer.raw("\n")
            session.write(writer.take())
        } else {
            let lines = rows.map { row -> [String] in
                let lunar = LunarDate(year: row.year, month: row.month, isLeapMonth: row.leap, day: row.day)
                return toGregorian ? [lunar.description, row.gregorian, "\(row.yearName)\(row.written)"]
                    : [row.gregorian, "\(row.yearName)\(row.written)", "(\(row.zodiac))"]
            }
            session.printLines(TextTable.render(lines).lazy.map { $0.trimmingTrailingSpaces() })
        }
        if !failures.isEmpty { throw CommandFailure(.inputError, failures) }
    }

    /// A row as JSON (Almanac's model layout, keys sorted).
    static func write(_ row: Row, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("day")
        writer.integer(row.day)
        writer.key("gregorian")
        writer.string(row.gregorian)
        writer.key("leap")
        writer.bool(row.leap)
        writer.key("month")
        writer.integer(row.month)
        writer.key("source")
        writer.string(row.source)
        writer.key("written")
        writer.string(row.written)
        writer.key("year")
        writer.integer(row.year)
        writer.key("yearName")
        writer.string(row.yearName)
        writer.key("zodiac")
        writer.string(row.zodiac)
        writer.endObject()
    }
}
