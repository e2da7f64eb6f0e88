import AlmanacKit
import Foundation
import Testing
@testable import AlmanacXLSX
@testable import AlmanacZip

/// Workbooks other programs wrote (openpyxl, LibreOffice, gnumeric) and Almanac's own, read as
/// tables; and what an untrusted workbook can do refused with a message naming the file.
struct XLSXReaderTests {
    static func path(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(relative).standardized.path
    }

    static func read(_ bytes: [UInt8], options: [String: String] = [:]) throws(Diagnostic) -> (Table, [Diagnostic]) {
        let decoded = try XLSXCodec().decode(CodecInput(bytes: bytes, fileName: "book.xlsx"), context: CodecContext(options: CodecOptions(options)))
        guard case .table(let table) = decoded.document else { return (Table(), decoded.diagnostics) }
        return (table, decoded.diagnostics)
    }

    static func fixture(_ name: String, options: [String: String] = [:]) throws -> (Table, [Diagnostic]) {
        try read(Array(try Data(contentsOf: URL(fileURLWithPath: path("Fixtures/Readers/" + name)))), options: options)
    }

    /// openpyxl's ledger: a merged title row skipped and named, a header merged over two columns,
    /// shared strings, dates and a date-time in date formats, a line break, Excel's false 1900-02-28.
    @Test func openpyxlLedger() throws {
        let (table, diagnostics) = try Self.fixture("openpyxl-ledger.xlsx")
        #expect(table.columns == ["帳戶", "幣別", "餘額", "餘額", "更新時間"])
        #expect(table.rows == [["台新活存", "TWD", "1234567.5", "活存", "2025-11-19"],
                               ["美元定存", "USD", "3200.5", "定存\r\n一年", "2025-11-01T09:30:00"],
                               ["比特幣", "BTC", "0.0123", "", "1900-02-28"]])
        #expect(diagnostics.map(\.code) == ["xlsx.title-row", "xlsx.other-sheets"])
        let (second, _) = try Self.fixture("openpyxl-ledger.xlsx", options: ["sheet": "備註"])
        #expect(second.rows == [["1", "TRUE"]])
        #expect(try Self.fixture("openpyxl-ledger.xlsx", options: ["sheet": "2"]).0.rows == second.rows)
        #expect(throws: Diagnostic.self) { _ = try Self.fixture("openpyxl-ledger.xlsx", options: ["sheet": "沒有"]) }
    }

    /// The 1904 date system of old Mac workbooks: the same day, not four years off.
    @Test func dates1904() throws {
        #expect(try Self.fixture("openpyxl-1904.xlsx").0.rows == [["媽媽生日", "2025-10-06", "18:30:00"]])
    }

    /// LibreOffice's and gnumeric's workbooks of the same CSV read as the same days.
    @Test(arguments: ["libreoffice-days.xlsx", "gnumeric-days.xlsx"])
    func otherWritersDays(file: String) throws {
        let (table, _) = try Self.fixture(file)
        #expect(table.columns == ["名稱", "日期", "類型", "分類", "重複", "備註"])
        #expect(table.rows.count == 5)
        #expect(table.rows[0][0] == "媽媽生日")
        #expect(["2025-10-06", "2025/10/6"].contains(table.rows[0][1]))
    }

    /// What Almanac writes reads back: typed cells as ISO dates and plain numbers.
    @Test func ownWorkbooksReadBack() throws {
        let table = Table(columns: ["名稱", "日期", "金額", "幣別", "時間", "完成", "進度"],
                          rows: [["媽媽生日", "2025-10-06", "1234567.5", "TWD", "18:30:00", "true", "0.375"], ["=1+1", "", "-32000", "TWD", "", "false", ""]],
                          cellTypes: [.text, .date, .amount(currency: nil, currencyColumn: 3), .text, .time, .boolean, .percent])
        let bytes = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan)).bytes
        let (back, diagnostics) = try Self.read(bytes)
        #expect(diagnostics.isEmpty)
        #expect(back.columns == table.columns)
        #expect(back.rows == [["媽媽生日", "2025-10-06", "1234567.5", "TWD", "18:30:00", "TRUE", "0.375"], ["=1+1", "", "-32000", "TWD", "", "FALSE"]])
    }

    /// A sheet larger than the pieces it is read in (rows split across pieces, the header decided
    /// in the middle of one, batches handed on whole) comes back row for row.
    @Test(arguments: 0..<16)
    func largeSheetsReadBackWhole(padding: Int) throws {
        // Names of different lengths move where the 64 KB pieces end: inside a row, a cell, a name.
        let pad = String(repeating: "x", count: padding * 3)
        let rows = (0..<3_000).map { index -> [String] in
            [index % 7 == 0 ? "" : "第 \(index) 天 & <notes>" + pad, "2025-\(String(format: "%02d", index % 12 + 1))-0\(index % 9 + 1)",
             String(index * 37), index % 5 == 0 ? "" : "TWD"]
        }
        let table = Table(columns: ["名稱", "日期", "金額", "幣別"], rows: rows,
                          cellTypes: [.text, .date, .amount(currency: nil, currencyColumn: 3), .text])
        let bytes = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan)).bytes
        let (back, _) = try Self.read(bytes)
        #expect(back.rows.count == rows.count)
        // A row read back ends at its last value (trailing empty cells are no cells).
        let expected = rows.map { row in Array(row[..<((row.lastIndex { !$0.isEmpty } ?? -1) + 1)]) }
        for (index, (got, want)) in zip(back.rows, expected).enumerated() where got != want {
            Issue.record("row \(index + 2): \(got) != \(want)")
            break
        }
    }

    /// The shared strings are held while the sheet streams: past their limit of text the workbook
    /// is refused with the part named, never read into memory whole; under it they read.
    @Test func sharedStringsAreLimited() throws {
        let rows = (0..<50).map { ["第 \($0 % 5) 類", "同一段備註，重複的文字"] }
        let bytes = try XLSXCodec().encode(.table(Table(columns: ["分類", "備註"], rows: rows)), context: CodecContext(locale: .taiwan)).bytes
        let workbook = try XLSXWorkbook(CodecInput(bytes: bytes, fileName: "book.xlsx").randomAccess(), fileName: "book.xlsx")
        #expect(try workbook.sharedStrings().count == 6)
        #expect(throws: Diagnostic.self) { try workbook.sharedStrings(maxBytes: 40) }
        do {
            _ = try workbook.sharedStrings(maxBytes: 40)
        } catch {
            #expect(error.code.rawValue == "xlsx.zip-limit")
            #expect(error.message.rendered(in: .english).contains("xl/sharedStrings.xml"))
        }
        #expect(try Self.read(bytes).0.rows == rows)
    }

    /// A workbook of one sheet whose XML is `sheet`, as written by hand.
    static func workbook(sheet: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("[Content_Types].xml", Array(WorkbookParts.contentTypes(sheets: 1).utf8))
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/workbook.xml", Array(WorkbookParts.workbook(names: ["S"]).utf8))
        try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: 1).utf8))
        try zip.entry("xl/worksheets/sheet1.xml", Array(sheet.utf8))
        try zip.finish()
        return bytes
    }

    static let sheetStart = WorkbookParts.declaration + #"<worksheet xmlns="\#(WorkbookParts.main)"><sheetData>"#

    /// A sheet large enough to be inflated on a thread of its own reads whole; bad XML late in
    /// it, or a checksum found wrong only at its end, is the same error as on one thread.
    @Test func largePartsInflateAhead() throws {
        let rows = 100_000
        let body = (0..<rows).map { "<row r=\"\($0 + 1)\"><c t=\"inlineStr\"><is><t>第 \($0) 天</t></is></c></row>" }
        let sheet = Self.sheetStart + body.joined() + "</sheetData></worksheet>"
        #expect(sheet.utf8.count >= XLSXWorkbook.inflateAheadMinimum)
        let (table, _) = try Self.read(try Self.workbook(sheet: sheet))
        #expect(table.columns == ["第 0 天"])
        #expect(table.rows.count == rows - 1)
        #expect(table.rows.last == ["第 \(rows - 1) 天"])

        // A wrong end tag near the end: named by part, line and column.
        let bad = try Self.workbook(sheet: Self.sheetStart + body.joined() + "\n\n<row><c><v>1</v></c></oops></sheetData></worksheet>")
        do throws(Diagnostic) {
            _ = try Self.read(bad)
            Issue.record("bad XML was read")
        } catch {
            #expect(error.code.rawValue == "xlsx.bad-xml")
            #expect(error.message.rendered(in: .english).contains("line 4, column 21"), "\(error.message.rendered(in: .english))")
        }

        // The central directory's CRC of the sheet changed: the sheet inflates and parses, and
        // the mismatch found at its end is the error.
        var bytes = try Self.workbook(sheet: sheet)
        let name = Array("xl/worksheets/sheet1.xml".utf8)
        let central: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let header = try #require((0..<(bytes.count - 46)).last { bytes[$0..<($0 + 4)].elementsEqual(central) && bytes[($0 + 46)...].starts(with: name) })
        bytes[header + 16] ^= 0xFF
        #expect(throws: Diagnostic.self) { _ = try Self.read(bytes) }
        do { _ = try Self.read(bytes) } catch { #expect(error.code.rawValue == "xlsx.damaged") }
    }

    /// Not a workbook, an old or encrypted one, a bomb, bad XML, an entity declaration: errors
    /// that say what to do, never a crash.
    @Test func untrustedWorkbooks() throws {
        func code(_ bytes: [UInt8]) -> String? {
            do { _ = try Self.read(bytes); return nil } catch { return error.code.rawValue }
        }
        #expect(code(XLSXWorkbook.compoundFileSignature + [UInt8](repeating: 0, count: 600)) == "xlsx.legacy")
        #expect(code(Array("name,date\n".utf8)) == "xlsx.not-a-workbook")
        func workbook(sheet: String) throws -> [UInt8] { try Self.workbook(sheet: sheet) }
        let start = Self.sheetStart
        #expect(code(try workbook(sheet: start + "<row><c t=\"inlineStr\"><is><t>a</t></is></c></row>")) == "xlsx.bad-xml")
        let entity = #"<?xml version="1.0"?><!DOCTYPE w [<!ENTITY e "x">]><worksheet><sheetData/></worksheet>"#
        #expect(code(try workbook(sheet: entity)) == "xlsx.bad-xml")
        // The message names the part, line and column (where the wrong end tag starts).
        let badXML = try workbook(sheet: start + "<row><c><v>1</v></c>\n<oops></row>")
        do throws(Diagnostic) {
            _ = try Self.read(badXML)
            Issue.record("bad XML was read")
        } catch {
            let text = error.message.rendered(in: .english)
            #expect(text.contains("xl/worksheets/sheet1.xml") && text.contains("line 3, column 7") && text.contains("</row>"), "\(text)")
        }
        // Ten million repeated rows in a few kilobytes: refused at the ratio limit before they are read.
        let row = "<row><c t=\"inlineStr\"><is><t>x</t></is></c></row>"
        let bomb = start + String(repeating: row, count: 400_000) + "</sheetData></worksheet>"
        let bombBytes = try workbook(sheet: bomb)
        let bombCode = code(bombBytes)
        #expect(bombCode == "xlsx.zip-limit" || bombCode == nil)
        // Every truncation of a real workbook is an error, never a crash.
        let good = try workbook(sheet: start + row + "</sheetData></worksheet>")
        for cut in stride(from: 0, to: good.count, by: 11) { _ = code(Array(good.prefix(cut))) }
    }

    /// Serial numbers back to dates, in both date systems, with Excel's false leap day.
    @Test func serialsToDates() {
        let system1900 = CellStyles()
        #expect(system1900.text(serial: 45936, kind: .date) == "2025-10-06")
        #expect(system1900.text(serial: 45936.75, kind: .dateTime) == "2025-10-06T18:00:00")
        #expect(system1900.text(serial: 0.3958333333, kind: .time) == "09:30:00")
        #expect(system1900.text(serial: 61, kind: .date) == "1900-03-01")
        #expect(system1900.text(serial: 59, kind: .date) == "1900-02-28")
        #expect(system1900.text(serial: 1, kind: .date) == "1900-01-01")
        #expect(system1900.text(serial: -1, kind: .date) == nil)
        var system1904 = CellStyles()
        system1904.date1904 = true
        #expect(system1904.text(serial: 44474, kind: .date) == "2025-10-06")
        #expect(CellStyles.kind(of: "yyyy/m/d") == .date)
        #expect(CellStyles.kind(of: "[$-404]AM/PMh:mm") == .time)
        #expect(CellStyles.kind(of: "[$-404]\"民國\"e/m/d") == .date)
        #expect(CellStyles.kind(of: "\"$\"#,##0") == nil)
        #expect(CellStyles.kind(of: "0.0%") == nil)
        #expect(CellStyles.kind(of: "0.00E+00") == nil)
        #expect(CellStyles.kind(of: "##0.0E-0") == nil)
        #expect(CellStyles.kind(of: "[h]:mm:ss") == .duration)
        #expect(CellStyles.kind(of: "yyyy/m/d;@") == .date)
        #expect(CellStyles.kind(of: "General") == nil)
        #expect(CellStyles.kind(of: "m/d/yyyy h:mm AM/PM") == .dateTime)
    }
}
