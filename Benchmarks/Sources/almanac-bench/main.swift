import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacICalendar
import AlmanacCSV
import AlmanacKit
import Foundation
import Synchronization

// One workload per run, so the driver can measure time and peak memory of the whole process,
// the same way it measures the peers.
//
//   almanac-bench ics-parse FILE               parse into the Agenda model (items kept)
//   almanac-bench ics-stream FILE              parse item by item, keeping none (constant memory)
//   almanac-bench ics-expand FILE FROM UNTIL   parse, then expand every item in [FROM, UNTIL)
//   almanac-bench csv-read FILE                every record, every field materialized as a String
//   almanac-bench csv-bounds FILE              records and field boundaries only
//   almanac-bench csv-convert FILE LOCALE      rows → days → rows for a region, through the pipeline to /dev/null
//   almanac-bench ics-csv FILE LOCALE          a calendar as a table for a region, through the pipeline to /dev/null
//   almanac-bench format-region FILE LOCALE N  the first N rows' dates (long style) and TWD amounts for a region

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: almanac-bench ics-parse|ics-stream|ics-expand FILE [FROM UNTIL]") }
let input = CodecInput(contentsOf: arguments[2])
do throws(any Error) {
    switch arguments[1] {
    case "ics-parse":
        let result = try ICalendarReader().read(input)
        print("items \(result.agenda.items.count)")
        // Like the C peer, leave tearing the model down to the end of the process.
        exit(withExtendedLifetime(result) { 0 })
    case "ics-stream":
        var count = 0
        _ = try ICalendarReader().stream(input) { _ in count += 1 }
        print("items \(count)")
    case "ics-expand":
        guard arguments.count == 5, let from = ISO8601DateFormatter().date(from: arguments[3] + "T00:00:00Z"),
              let until = ISO8601DateFormatter().date(from: arguments[4] + "T00:00:00Z")
        else { fail("usage: almanac-bench ics-expand FILE YYYY-MM-DD YYYY-MM-DD") }
        let agenda = try ICalendarReader().read(input).agenda
        let expanded = OccurrenceExpander(agenda: agenda, defaultZone: .taipei, definitions: ICalendarCodec())
            .occurrences(from: from, until: until, limit: 100_000)
        print("occurrences \(expanded.occurrences.count)")
    case "csv-read":
        // Field boundaries and every field as a String.
        var rows = 0
        var fields = 0
        _ = try CSVInput.read(input) { record in
            rows += 1
            fields += record.strings.count
        }
        print("rows \(rows) fields \(fields)")
    case "csv-bounds":
        var rows = 0
        _ = try CSVInput.read(input) { _ in rows += 1 }
        print("rows \(rows)")
    case "csv-convert", "ics-csv":
        guard arguments.count == 4, let locale = try? LocaleID(arguments[3]) else { fail("usage: almanac-bench \(arguments[1]) FILE LOCALE") }
        guard let sink = FileHandle(forWritingAtPath: "/dev/null") else { fail("cannot open /dev/null") }
        let registry = BuiltInFormats.registry
        let bytes = Mutex(0)
        let conversion = Conversion(registry: registry, target: try registry.require("csv"), source: try registry.require(arguments[1] == "ics-csv" ? "ics" : "csv"),
                                    via: arguments[1] == "ics-csv" ? nil : .agenda, context: CodecContext(locale: locale)) { piece in
            bytes.withLock { $0 += piece.count }
            sink.write(Data(piece))
        }
        let report = conversion.run(.file(arguments[2]), to: .standardOutput)
        guard report.status == .converted else { fail("\(report.diagnostics)") }
        print("rows \(report.records ?? 0) bytes \(bytes.withLock { $0 })")
    case "format-region":
        // What Babel's format_date(d, "long") and format_currency(n, "TWD") do, row by row.
        guard arguments.count == 5, let locale = try? LocaleID(arguments[3]), let limit = Int(arguments[4]) else {
            fail("usage: almanac-bench format-region FILE LOCALE N")
        }
        let dates = try DateFormat(dateStyle: .long, timeStyle: .none, locale: locale)
        let money = try CurrencyFormat(currency: "TWD", locale: locale, rounding: .standard)
        var rows = 0
        var characters = 0
        var header: [String: Int] = [:]
        _ = try CSVInput.read(input) { record in
            let fields = record.strings
            if header.isEmpty {
                for (index, name) in fields.enumerated() { header[name] = index }
                return
            }
            guard rows < limit, let date = try? CivilDate(iso: fields[header["date"]!]) else { return }
            characters += dates.string(from: date).count
            characters += (try? money.string(decimalText: fields[header["amount_twd"]!]))?.count ?? 0
            rows += 1
        }
        print("rows \(rows) characters \(characters)")
    default:
        fail("unknown workload \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
