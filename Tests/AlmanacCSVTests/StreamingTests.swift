@testable import AlmanacCSV
import AlmanacCore
import AlmanacICalendar
import AlmanacICU
import Foundation
import Testing

/// CSV → days → CSV one row at a time must write what the whole-table path writes.
@Suite struct StreamingTests {
    /// Every optional column is filled at least once, so both paths choose the same columns.
    static let source = [
        "id,name,date,time,end,repeat,type,location,category,notes,amount_twd",
        "1,媽媽生日,2025-10-06,,,每年,birthday,,生日,,1200",
        "2,\"Team \"\"sync\"\"\",2025/3/5,09:30,2025/3/5,每週,,台北 101,Work,\"line one\nline two\",",
        "3,=HYPERLINK(1),2025年12月1日,,2025年12月3日,,countdown,,\"生活, 旅行\",-2+3,-500",
        "4,,2025-01-01,,,,,,,,",
        "5,壞日期,2025/2/30,,,,,,,,",
    ].joined(separator: "\r\n") + "\r\n"

    func viaTable(_ csv: String, read: CodecContext, write: CodecContext) throws -> [UInt8] {
        let decoded = try CSVCodec.csv.decode(CodecInput(bytes: Array(csv.utf8), fileName: "days.csv"), context: read)
        let (agenda, _) = try TableConverter().convert(decoded.document, to: .agenda, context: read)
        let (table, _) = try TableConverter().convert(agenda, to: .table, context: write)
        return try CSVCodec.csv.encode(table, context: write).bytes
    }

    func streamed(_ csv: String, read: CodecContext, write: CodecContext, pieceSize: Int = 1 << 20) throws -> (bytes: [UInt8], pieces: Int, result: (records: Int, diagnostics: [Diagnostic])) {
        var bytes: [UInt8] = []
        var pieces = 0
        let result = try CSVCodec.csv.streamAgenda(CodecInput(bytes: Array(csv.utf8), fileName: "days.csv"), to: .csv,
                                                  readContext: read, writeContext: write, pieceSize: pieceSize) { piece in
            bytes += piece
            pieces += 1
        }
        return (bytes, pieces, result)
    }

    @Test(arguments: ["zh-TW", "zh-CN", "en-US"])
    func sameRowsAsTheWholeTable(locale: String) throws {
        let read = CodecContext(locale: .taiwan, timeZone: try TimeZoneID("Asia/Taipei"))
        let write = CodecContext(locale: try LocaleID(locale), options: ["relative": "yes", "today": "2025-06-01"])
        let whole = try viaTable(Self.source, read: read, write: write)
        let stream = try streamed(Self.source, read: read, write: write)
        #expect(String(decoding: stream.bytes, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(stream.result.records == 4)
        // The unreadable date is reported with its row and column, and the row is kept.
        #expect(stream.result.diagnostics.contains { $0.code == "csv.bad-value" && $0.location?.keyPath == "row 6" })
    }

    @Test func taipeiHeadersAndGuards() throws {
        let stream = try streamed(Self.source, read: CodecContext(locale: .taiwan), write: CodecContext(locale: .taiwan))
        let text = String(decoding: stream.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{FEFF}名稱,日期,時間,結束,重複,類型,地點,分類,備註,金額\r\n"))
        #expect(text.contains("'=HYPERLINK(1)"))
        #expect(text.contains(",'-2+3,-500\r\n"))  // text guarded, the amount stays a number
    }

    @Test func largeInputsArriveInPieces() throws {
        var csv = "name,date\r\n"
        for index in 0..<2_000 { csv += "Day \(index),2025-03-05\r\n" }
        let stream = try streamed(csv, read: CodecContext(), write: CodecContext(options: ["style": "iso"]), pieceSize: 4096)
        #expect(stream.result.records == 2_000)
        #expect(stream.pieces >= stream.bytes.count / 4096)
        let lines = String(decoding: stream.bytes, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 2_001)
        #expect(lines.last == "Day 1999,2025-03-05,,,")
    }

    /// A calendar written as a table in two streamed passes equals the table of the whole calendar.
    @Test(arguments: ["zh-TW", "en-US"])
    func calendarsStreamToTheSameTable(locale: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/family-calendar.ics").standardized.path
        let input = CodecInput(contentsOf: path)
        let context = CodecContext(locale: try LocaleID(locale), timeZone: .taipei, options: ["relative": "yes", "today": "2025-09-01"])
        let decoded = try ICalendarCodec().decode(input, context: context)
        let (table, _) = try TableConverter().convert(decoded.document, to: .table, context: context)
        let whole = try CSVCodec.csv.encode(table, context: context).bytes
        var streamed: [UInt8] = []
        let result = try CSVCodec.csv.streamCalendar(input, reader: ICalendarCodec().reader(context), writeContext: context, pieceSize: 256) {
            streamed += $0
        }
        #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(result.records + 1 == String(decoding: whole, as: UTF8.self).split(separator: "\r\n").count)
        #expect(String(decoding: streamed, as: UTF8.self).contains(locale == "zh-TW" ? "八月十五" : "days left"))
    }

    @Test func noNameColumnIsAnError() throws {
        #expect(throws: Diagnostic.self) {
            _ = try streamed("when,where\r\n2025-01-01,home\r\n", read: CodecContext(), write: CodecContext())
        }
    }
}
