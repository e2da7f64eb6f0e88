import AlmanacCore
import AlmanacICU
import AlmanacKit
import Foundation
import Synchronization
import Testing

/// The conversion pipeline: streamed conversions write what whole-document ones write, in pieces.
@Suite struct ConversionTests {
    /// Every optional column is filled at least once, so both paths choose the same columns.
    static let days = [
        "id,name,date,time,end,repeat,type,location,category,notes,amount_twd",
        "1,媽媽生日,2025-10-06,,,每年,birthday,,生日,,1200",
        "2,\"Team \"\"sync\"\"\",2025/3/5,09:30,2025/3/5,每週,,台北 101,Work,\"line one\nline two\",",
        "3,=HYPERLINK(1),2025年12月1日,,2025年12月3日,,countdown,,\"生活, 旅行\",-2+3,-500",
        "4,,2025-01-01,,,,,,,,",
        "5,壞日期,2025/2/30,,,,,,,,",
    ].joined(separator: "\r\n") + "\r\n"

    static let registry = BuiltInFormats.registry

    static func examplePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/\(name)").standardized.path
    }

    /// Runs a conversion to standard output, streamed or not: the bytes, how many pieces they came
    /// in, and the report.
    static func run(_ input: ConversionInput, from source: String? = nil, to format: String, via: ModelKind? = nil,
                    context: CodecContext = CodecContext(), streams: Bool = true) throws -> (bytes: [UInt8], pieces: Int, report: ConversionReport) {
        // Small inputs stream too here (a conversion converts them whole when streaming takes two passes).
        let captured = Mutex<(bytes: [UInt8], pieces: Int)>(([], 0))
        var conversion = Conversion(registry: registry, target: try registry.require(format), source: try source.map(registry.require),
                                    via: via, context: context) { piece in
            captured.withLock { $0.bytes += piece; $0.pieces += 1 }
        }
        conversion.streams = streams
        conversion.firstPassThreshold = 0
        let report = conversion.run(input, to: .standardOutput)
        return captured.withLock { ($0.bytes, $0.pieces, report) }
    }

    @Test(arguments: ["zh-TW", "zh-CN", "en-US"])
    func rowsThroughDaysStreamAsTheWholeTable(locale: String) throws {
        let context = CodecContext(locale: try LocaleID(locale), timeZone: try TimeZoneID("Asia/Taipei"),
                                   options: ["relative": "yes", "today": "2025-06-01"])
        let input = ConversionInput.standardInput(Array(Self.days.utf8))
        let streamed = try Self.run(input, from: "csv", to: "csv", via: .agenda, context: context)
        let whole = try Self.run(input, from: "csv", to: "csv", via: .agenda, context: context, streams: false)
        #expect(streamed.report.status == .converted)
        #expect(String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
        #expect(streamed.report.records == 4)
        // The unreadable date is reported with its row and column, and the row is kept.
        #expect(streamed.report.diagnostics.contains { $0.code == "csv.bad-value" && $0.location?.keyPath == "row 6" })
    }

    /// A calendar streams into a Retire Time backup (categories found in a first pass, each day
    /// written as its event is read) and gives the bytes and warnings the whole calendar gives;
    /// a duplicate id fails the same way and writes nothing.
    @Test func calendarsStreamIntoRetireTimeBackups() throws {
        let context = CodecContext(timeZone: try TimeZoneID("Asia/Taipei"), options: ["exported-at": "2025-12-01T00:00:00+08:00"])
        let fixtures = "../Tests/AlmanacICalendarTests/Fixtures/"
        let calendars = ["google-export.ics", "outlook-export.ics", "apple-export.ics", "lunar-birthdays.ics", "bench-300.ics"]
        for example in ["family-calendar.ics"] + calendars.map({ fixtures + $0 }) {
            let path = Self.examplePath(example)
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
            let streamed = try Self.run(.file(path), to: "retiretime-backup", context: context)
            let whole = try Self.run(.file(path), to: "retiretime-backup", context: context, streams: false)
            #expect(streamed.report.status == .converted, "\(example)")
            #expect(!streamed.bytes.isEmpty)
            #expect(String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self), "\(example)")
            #expect(streamed.report.diagnostics.map(\.description) == whole.report.diagnostics.map(\.description), "\(example)")
        }
        var calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        for (uid, category) in [("a", "家人"), ("b", "Work"), ("a", "家人")] {
            calendar += "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;VALUE=DATE:20250301\r\nSUMMARY:\(uid)\r\nCATEGORIES:\(category)\r\nEND:VEVENT\r\n"
        }
        calendar += "END:VCALENDAR\r\n"
        let duplicate = try Self.run(.standardInput(Array(calendar.utf8)), to: "retiretime-backup", context: context)
        #expect(duplicate.report.status == .failed)
        #expect(duplicate.report.diagnostics.contains { $0.code == "backup.duplicate-id" && $0.location?.keyPath == "/days/2/id" })
    }

    @Test func taipeiHeadersAndGuards() throws {
        let streamed = try Self.run(.standardInput(Array(Self.days.utf8)), from: "csv", to: "csv", via: .agenda, context: CodecContext(locale: .taiwan))
        let text = String(decoding: streamed.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{FEFF}名稱,日期,時間,結束,重複,類型,地點,分類,備註,金額（TWD）\r\n"))  // amount_twd: the header says the currency
        #expect(text.contains("'=HYPERLINK(1)"))
        #expect(text.contains(",'-2+3,-500\r\n"))  // text guarded, the amount stays a number
    }

    @Test func largeOutputsArriveInPieces() throws {
        var csv = "name,date\r\n"
        for index in 0..<120_000 { csv += "Day \(index),2025-03-05\r\n" }
        let streamed = try Self.run(.standardInput(Array(csv.utf8)), from: "csv", to: "csv", via: .agenda, context: CodecContext(options: ["style": "iso"]))
        #expect(streamed.report.records == 120_000)
        #expect(streamed.pieces >= streamed.bytes.count / (1 << 20))
        #expect(streamed.pieces > 1)
        let lines = String(decoding: streamed.bytes, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 120_001)
        #expect(lines.last == "Day 119999,2025-03-05,,,")
    }

    /// A calendar written as a table in two streamed passes equals the table of the whole calendar.
    @Test(arguments: ["zh-TW", "en-US"])
    func calendarsStreamToTheSameTable(locale: String) throws {
        let context = CodecContext(locale: try LocaleID(locale), timeZone: .taipei, options: ["relative": "yes", "today": "2025-09-01"])
        let input = ConversionInput.file(Self.examplePath("family-calendar.ics"))
        let streamed = try Self.run(input, to: "csv", context: context)
        let whole = try Self.run(input, to: "csv", context: context, streams: false)
        let text = String(decoding: streamed.bytes, as: UTF8.self)
        #expect(text == String(decoding: whole.bytes, as: UTF8.self))
        #expect(streamed.report.records! + 1 == text.split(separator: "\r\n").count)
        #expect(text.contains(locale == "zh-TW" ? "八月十五" : "days left"))
    }

    /// ics → ics, jCal and xCal, and CSV → JSON Lines and JSON: the streamed bytes are the whole
    /// document's bytes.
    @Test(arguments: [("family-calendar.ics", "ics"), ("family-calendar.ics", "jcal"), ("family-calendar.ics", "xcal"),
                      ("retire-time-days.csv", "jsonl"), ("retire-time-days.csv", "json"), ("retire-time-days.csv", "tsv")])
    func streamedEqualsWhole(example: String, format: String) throws {
        let input = ConversionInput.file(Self.examplePath(example))
        let streamed = try Self.run(input, to: format)
        let whole = try Self.run(input, to: format, streams: false)
        #expect(streamed.report.status == .converted, "\(streamed.report.diagnostics)")
        #expect(!streamed.bytes.isEmpty)
        #expect(String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
    }

    /// A large input is read on a thread of its own; the bytes are those of reading it in line.
    @Test func readingOnAnotherThreadWritesTheSameBytes() throws {
        let path = NSTemporaryDirectory() + "almanac-large-\(UUID().uuidString).csv"
        var csv = "name,date,notes\r\n"
        for index in 0..<140_000 { csv += "Day \(index),2025-03-05,\"note, with \"\"quotes\"\" and 中文 \(index)\"\r\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(csv.utf8.count >= Conversion.parallelReadThreshold)
        for format in ["jsonl", "tsv"] {
            let captured = Mutex<[[UInt8]]>([])
            for parallel in [true, false] {
                let bytes = Mutex<[UInt8]>([])
                var conversion = Conversion(registry: Self.registry, target: try Self.registry.require(format)) { piece in bytes.withLock { $0 += piece } }
                conversion.readsInParallel = parallel
                let report = conversion.run(.file(path), to: .standardOutput)
                #expect(report.status == .converted)
                #expect(report.records == 140_000)
                captured.withLock { $0.append(bytes.withLock { $0 }) }
            }
            let outputs = captured.withLock { $0 }
            #expect(outputs[0] == outputs[1], "\(format)")
        }
    }

    /// Rows read as days and written for a region convert in batches on several threads: the bytes,
    /// the row-numbered warnings and the losses are those of converting on one.
    @Test(arguments: [("csv", "csv", ["style": "region"]), ("csv", "csv", ["style": "iso"]), ("csv", "jsonl", [:])])
    func convertingOnSeveralThreadsWritesWhatOneWrites(from: String, to: String, options: [String: String]) throws {
        let path = NSTemporaryDirectory() + "almanac-large-\(UUID().uuidString).csv"
        var csv = "id,name,date,time,end,repeat,type,location,category,notes,amount_twd\r\n"
        for index in 0..<800 {
            // Ids on some rows only (the others get ids made from the row), a bad date every 7th.
            let id = index % 3 == 0 ? "" : "id-\(index)"
            csv += "\(id),媽媽生日 \(index % 11),2025-10-06,,,每年,birthday,,生日,,1200\r\n"
            csv += "\(id)b,\"Team \"\"sync\"\"\",2025/3/5,09:30,2025/3/5,每週,,台北 101,Work,\"line one\nline two\",\r\n"
            csv += ",=HYPERLINK(\(index)),2025年12月1日,,2025年12月3日,,countdown,,\"生活, 旅行\",-2+3,-500\r\n"
            csv += ",,2025-01-01,,,,,,,,\r\n"
            csv += "x\(index),壞日期,\(index % 7 == 0 ? "2025/2/30" : "2025/2/28"),,,,,,,,\r\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = CodecContext(locale: .taiwan, timeZone: .taipei, options: CodecOptions(options.merging(["relative": "yes", "today": "2025-06-01"]) { a, _ in a }))
        var outputs: [(bytes: [UInt8], report: ConversionReport)] = []
        for workers in [1, 3] {
            let bytes = Mutex<[UInt8]>([])
            var conversion = Conversion(registry: Self.registry, target: try Self.registry.require(to), source: try Self.registry.require(from),
                                        via: .agenda, context: context) { piece in bytes.withLock { $0 += piece } }
            conversion.workers = workers
            // Read in parallel, in batches of about a hundred rows.
            (conversion.parallelReadThreshold, conversion.parallelBatchBytes) = (0, 4 << 10)
            let report = conversion.run(.file(path), to: .standardOutput)
            #expect(report.status == .converted, "\(report.diagnostics.prefix(3))")
            outputs.append((bytes.withLock { $0 }, report))
        }
        #expect(outputs[0].report.records == 3_200)
        Self.expectSame(outputs[0].bytes, outputs[1].bytes)
        let described = outputs.map { $0.report.diagnostics.map { "\($0.code) \($0.location?.keyPath ?? "") \($0.message.rendered())" } }
        #expect(described[0] == described[1])
        #expect(described[0].filter { $0.hasPrefix("csv.bad-value") }.count == 800 / 7 + 1)
    }

    /// A calendar's items and a table's rows encoded in batches on several threads: the bytes and
    /// the warnings are those of writing them on one (the time zones the items use are defined at
    /// the end either way).
    @Test(arguments: [("family-calendar.ics", "ics"), ("family-calendar.ics", "jcal"), ("family-calendar.ics", "xcal"),
                      ("retire-time-days.csv", "json"), ("retire-time-days.csv", "jsonl"), ("retire-time-days.csv", "csv")])
    func encodingOnSeveralThreadsWritesWhatOneWrites(example: String, format: String) throws {
        // The example many times over, so there are many batches.
        let source = try String(contentsOfFile: Self.examplePath(example), encoding: .utf8)
        let text: String
        if example.hasSuffix(".ics") {
            let begin = source.range(of: "BEGIN:VEVENT")!.lowerBound, end = source.range(of: "END:VCALENDAR")!.lowerBound
            let items = source[begin..<end]
            text = String(source[..<begin]) + (0..<30).map { copy in items.replacingOccurrences(of: "UID:", with: "UID:\(copy)-") }.joined() + String(source[end...])
        } else {
            // The header, then the rows many times (lines end in CR LF, one Character to Swift).
            let bytes = Array(source.utf8), headerEnd = bytes.firstIndex(of: 0x0A)! + 1
            text = String(decoding: bytes[..<headerEnd] + Array((0..<100).map { _ in bytes[headerEnd...] }.joined()), as: UTF8.self)
        }
        let path = NSTemporaryDirectory() + "almanac-batches-\(UUID().uuidString)-" + example
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var outputs: [(bytes: [UInt8], report: ConversionReport)] = []
        for workers in [1, 3] {
            let bytes = Mutex<[UInt8]>([])
            var conversion = Conversion(registry: Self.registry, target: try Self.registry.require(format)) { piece in bytes.withLock { $0 += piece } }
            conversion.workers = workers
            (conversion.parallelReadThreshold, conversion.parallelBatchBytes) = (0, 4 << 10)
            let report = conversion.run(.file(path), to: .standardOutput)
            #expect(report.status == .converted, "\(report.diagnostics.prefix(3))")
            outputs.append((bytes.withLock { $0 }, report))
        }
        #expect(outputs[0].report.records == outputs[1].report.records)
        #expect((outputs[0].report.records ?? 0) > 100)
        Self.expectSame(outputs[0].bytes, outputs[1].bytes)
        #expect(outputs[0].report.diagnostics.map(\.description) == outputs[1].report.diagnostics.map(\.description))
    }

    /// Two outputs are the same bytes; if not, where they part (a large output is not printed whole).
    static func expectSame(_ one: [UInt8], _ other: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard one != other else { return }
        let at = one.indices.first { $0 >= other.count || one[$0] != other[$0] } ?? one.count
        func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 80)], as: UTF8.self) }
        Issue.record("outputs part at byte \(at) of \(one.count) and \(other.count):\n\(around(one))\n---\n\(around(other))", sourceLocation: sourceLocation)
    }

    @Test func noNameColumnIsAnError() throws {
        let result = try Self.run(.standardInput(Array("when,where\r\n2025-01-01,home\r\n".utf8)), from: "csv", to: "csv", via: .agenda)
        #expect(result.report.status == .failed)
        #expect(result.report.diagnostics.map(\.code) == ["csv.no-title-column"])
        #expect(result.bytes.isEmpty)
    }
}
