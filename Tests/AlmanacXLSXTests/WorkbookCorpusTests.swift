import AlmanacKit
import AlmanacTestSupport
import Foundation
import Testing
@testable import AlmanacXLSX
@testable import AlmanacZip

/// The classes of workbook the public corpus (`Scripts/workbooks/`) found read wrongly or refused,
/// each on a real file from its tuning half (`Fixtures/Corpus/`, licences kept) or a written one:
/// ZIP64 containers, parts found only through relationships or named in another case or with
/// backslashes, UTF-16 parts, cell references in lower case or unreadable, an inline string with a
/// stray value, Excel's 17-digit numbers, serials a date format cannot show, a chart sheet first.
struct WorkbookCorpusTests {
    static func corpus(_ name: String, options: [String: String] = [:]) throws -> (Table, [Diagnostic]) {
        try XLSXReaderTests.read(Array(try Data(contentsOf: URL(fileURLWithPath: XLSXReaderTests.path("Fixtures/Corpus/" + name)))),
                                 options: options)
    }

    static func codes(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.code.rawValue) }

    /// A package from `parts` as written, in this order (names as given, however odd).
    static func package(_ parts: [(String, String)], zip64: Bool = false) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        if zip64 { zip.zip64Size = 0; zip.zip64Entries = 1 }
        for (name, text) in parts { try zip.entry(name, Array(text.utf8)) }
        try zip.finish()
        return bytes
    }

    static let relationships = WorkbookParts.relationships
    static func rels(_ items: [(id: String, type: String, target: String)]) -> String {
        WorkbookParts.declaration + #"<Relationships xmlns="\#(WorkbookParts.packageRelationships)">"#
            + items.map { #"<Relationship Id="\#($0.id)" Type="\#(relationships)/\#($0.type)" Target="\#($0.target)"/>"# }.joined()
            + "</Relationships>"
    }

    static func sheet(_ rows: String) -> String { XLSXReaderTests.sheetStart + rows + "</sheetData></worksheet>" }

    static let sharedStrings = WorkbookParts.declaration + #"<sst xmlns="\#(WorkbookParts.main)"><si><t>名稱</t></si><si><t>金額</t></si></sst>"#
    static let twoRows = sheet(#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>房租</t></is></c><c r="B2"><v>32000</v></c></row>"#)

    // MARK: The container

    /// A workbook whose every size and offset is in ZIP64's extra field (as .NET's and streaming
    /// writers write them) reads as the same workbook in a classic zip.
    @Test func zip64Workbook() throws {
        let parts = [("[Content_Types].xml", WorkbookParts.contentTypes(sheets: 1)), ("_rels/.rels", WorkbookParts.rootRelationships),
                     ("xl/workbook.xml", WorkbookParts.workbook(names: ["S"])), ("xl/_rels/workbook.xml.rels", WorkbookParts.workbookRelationships(sheets: 1)),
                     ("xl/sharedStrings.xml", Self.sharedStrings), ("xl/worksheets/sheet1.xml", Self.twoRows)]
        let classic = try XLSXReaderTests.read(try Self.package(parts)).0
        let zip64 = try XLSXReaderTests.read(try Self.package(parts, zip64: true)).0
        #expect(classic.columns == ["名稱", "金額"] && classic.rows == [["房租", "32000"]])
        #expect(zip64 == classic)
    }

    /// xlnt's minimal workbook keeps its workbook and sheet at the package's root.
    @Test func partsAtThePackageRoot() throws {
        let (table, diagnostics) = try Self.corpus("xlnt/2_minimal.xlsx")
        #expect(table.rows.isEmpty && Self.codes(diagnostics).allSatisfy { !$0.hasPrefix("xlsx.missing") })
        // The same layout with cells in it.
        let parts = [("_rels/.rels", Self.rels([("rId1", "officeDocument", "workbook.xml")])),
                     ("workbook.xml", WorkbookParts.workbook(names: ["一"])),
                     ("_rels/workbook.xml.rels", Self.rels([("rId1", "worksheet", "sheet1.xml"), ("rId2", "sharedStrings", "strings.xml")])),
                     ("strings.xml", Self.sharedStrings), ("sheet1.xml", Self.twoRows)]
        let read = try XLSXReaderTests.read(try Self.package(parts)).0
        #expect(read.columns == ["名稱", "金額"] && read.rows == [["房租", "32000"]])
    }

    /// Part names are compared as OPC compares them: a relationship to `sharedStrings.xml` finds
    /// `xl/SharedStrings.xml`, and simple_xlsx_reader's file, all backslashes and lower case, reads.
    @Test func partNamesInOtherCaseOrWithBackslashes() throws {
        let parts = [("_rels/.rels", WorkbookParts.rootRelationships), ("xl/Workbook.xml", WorkbookParts.workbook(names: ["S"])),
                     ("xl/_rels/workbook.xml.rels", WorkbookParts.workbookRelationships(sheets: 1)),
                     ("xl/SharedStrings.xml", Self.sharedStrings), ("xl\\worksheets\\sheet1.xml", Self.twoRows)]
        let (table, diagnostics) = try XLSXReaderTests.read(try Self.package(parts))
        #expect(table.columns == ["名稱", "金額"] && table.rows == [["房租", "32000"]], "\(diagnostics)")

        let (real, _) = try Self.corpus("simple_xlsx_reader/lower_case_sharedstrings.xlsx")
        #expect(real.columns.prefix(4) == ["", "Well", "Fluor", "Target"])
        #expect(real.rows.first?.prefix(8) == ["", "B02", "SYBR", "", "Std-1", "Lot 7", "", "14.6942131361156"])
    }

    /// openpyxl's bug137: a chart sheet comes first; the first sheet with cells is read, and a
    /// chart sheet asked for by name is refused with the worksheets to choose from.
    @Test func chartSheetsAreNotReadAsEmptyTables() throws {
        let (table, diagnostics) = try Self.corpus("openpyxl/bug137.xlsx")
        #expect(table.columns == ["A"] && table.rows == [["1"], ["2"], ["3"], ["4"]])
        #expect(!Self.codes(diagnostics).contains("xlsx.other-sheets"))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: XLSXReaderTests.path("Fixtures/Corpus/openpyxl/bug137.xlsx"))))
        do throws(Diagnostic) {
            _ = try XLSXReaderTests.read(bytes, options: ["sheet": "Chart1"])
            Issue.record("a chart sheet was read")
        } catch {
            #expect(error.code.rawValue == "xlsx.chart-sheet")
            #expect(error.message.rendered(in: .english).contains("“Sheet1”"))
        }
    }

    /// A sheet and shared strings in UTF-16, either byte order, with or without a byte order mark,
    /// declared as such: read as their UTF-8 twins are; a broken surrogate is bad XML, named.
    @Test(arguments: [false, true], [false, true])
    func utf16Parts(bigEndian: Bool, byteOrderMark: Bool) throws {
        func utf16(_ text: String) -> [UInt8] {
            let declared = text.replacing(#"encoding="UTF-8""#, with: #"encoding="UTF-16""#)
            let units = Array(declared.utf16)
            var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for unit in units { bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            return bytes
        }
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/workbook.xml", utf16(WorkbookParts.workbook(names: ["S"])))
        try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: 1).utf8))
        try zip.entry("xl/sharedStrings.xml", utf16(Self.sharedStrings))
        let emoji = #"<row r="3"><c r="A3" t="inlineStr"><is><t>🎂 生日</t></is></c></row>"#
        try zip.entry("xl/worksheets/sheet1.xml", utf16(Self.twoRows.replacing("</sheetData>", with: emoji + "</sheetData>")))
        try zip.finish()
        let (table, _) = try XLSXReaderTests.read(bytes)
        #expect(table.columns == ["名稱", "金額"] && table.rows == [["房租", "32000"], ["🎂 生日"]])
    }

    @Test func brokenUTF16IsNamed() throws {
        var sheet: [UInt8] = [0xFF, 0xFE]
        for unit in Array(Self.twoRows.utf16) { sheet += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        sheet += [0x00, 0xD8]  // a high surrogate with nothing after it
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/workbook.xml", Array(WorkbookParts.workbook(names: ["S"]).utf8))
        try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: 1).utf8))
        try zip.entry("xl/worksheets/sheet1.xml", sheet)
        try zip.finish()
        do throws(Diagnostic) {
            _ = try XLSXReaderTests.read(bytes)
            Issue.record("broken UTF-16 was read")
        } catch {
            #expect(error.code.rawValue == "xlsx.bad-xml")
            #expect(error.message.rendered(in: .english).contains("xl/worksheets/sheet1.xml"))
        }
    }

    // MARK: Cells

    /// `c1` is C1: a reference in lower case reads where its letters say, never one column on.
    @Test func lowerCaseReferences() throws {
        let sheet = Self.sheet(#"<row r="1"><c r="a1" t="inlineStr"><is><t>甲</t></is></c><c r="c1" t="inlineStr"><is><t>丙</t></is></c></row>"#
            + #"<row r="2"><c r="Aa2"><v>27</v></c></row>"#)
        let (table, _) = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: sheet))
        #expect(table.columns == ["甲", "", "丙"])
        #expect(table.rows == [Array(repeating: "", count: 26) + ["27"]])
    }

    /// A reference that names no cell is an error naming the sheet, the reference and the row.
    @Test(arguments: ["1A", "R1C1", "A0", "A", "$A$1", "A1B"])
    func unreadableReferencesAreRefused(reference: String) throws {
        let sheet = try XLSXReaderTests.workbook(sheet: Self.sheet(#"<row r="1"><c r="A1"><v>1</v></c><c r="\#(reference)"><v>2</v></c></row>"#))
        do throws(Diagnostic) {
            let (table, _) = try XLSXReaderTests.read(sheet)
            Issue.record("\(reference) was read: \(table.columns)")
        } catch {
            #expect(error.code.rawValue == "xlsx.bad-reference")
            let text = error.message.rendered(in: .english)
            #expect(text.contains("\"S\"") && text.contains("\"\(reference)\"") && text.contains("row 1"), "\(text)")
        }
        // A row number that is no number, likewise.
        let badRow = Self.sheet(#"<row r="x"><c><v>1</v></c></row>"#)
        #expect(throws: Diagnostic.self) { _ = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: badRow)) }
    }

    /// A random sheet, its cells written with every reference form a writer uses (upper, lower and
    /// mixed case, no `r` where the cell follows the last, rows with and without `r`, gaps), reads
    /// back with every value in its own row and column.
    @Test(arguments: 1...30)
    func everyReferenceFormReadsInPlace(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var expected: [Int: [Int: String]] = [:]
        var xml = ""
        var row = 0
        for _ in 0..<Int.random(in: 2...12, using: &generator) {
            let previous = row
            row += Int.random(in: 1...2, using: &generator)
            // Without `r` a row is the one after the last: only when there is no gap.
            let rowReference = Bool.random(using: &generator) || row != previous + 1
            xml += rowReference ? #"<row r="\#(row)">"# : "<row>"
            var column = 0
            var cells: [Int: String] = [:]
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let gap = Int.random(in: 1...3, using: &generator)
                let form = Int.random(in: 0..<4, using: &generator)
                // Without `r` a cell is the next column: only when there is no gap.
                let written = form == 3 && gap == 1 ? nil : gap
                column += gap
                let letters = String(decoding: SheetEncoder.letters(column - 1), as: UTF8.self)
                let reference: String
                switch form {
                case 0: reference = letters
                case 1: reference = letters.lowercased()
                default: reference = String(letters.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
                }
                let value = "v\(row)x\(column)"
                cells[column] = value
                xml += written == nil ? #"<c t="inlineStr">"# : #"<c r="\#(reference)\#(row)" t="inlineStr">"#
                xml += "<is><t>\(value)</t></is></c>"
            }
            expected[row] = cells
            xml += "</row>"
        }
        let (table, _) = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: Self.sheet(xml)))
        let rows = expected.keys.sorted()
        let read = [table.columns] + table.rows
        #expect(read.count == rows.count)
        for (fields, number) in zip(read, rows) {
            let cells = expected[number] ?? [:]
            for (column, value) in cells { #expect(column <= fields.count && fields[column - 1] == value, "row \(number): \(fields)") }
            for (index, field) in fields.enumerated() where !field.isEmpty { #expect(cells[index + 1] == field, "row \(number): \(fields)") }
        }
    }

    /// An inline string with a stray `<v>` beside its `<is>` is its inline text alone.
    @Test func inlineStringWithAStrayValue() throws {
        let sheet = Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><v>1.0</v><is><t>1.</t></is></c><c r="B1" t="inlineStr"><is><t>乙</t></is><v>9</v></c></row>"#)
        #expect(try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: sheet)).0.columns == ["1.", "乙"])
    }

    /// Excel's 17 digits are the double's shortest text, an exponent spelt out; 15 or fewer are kept.
    @Test func numbersAreTheirShortestText() throws {
        let values = ["0.044999999999999998", "1.2345678901234567E-3", "12345678901234567890", "3.0000000000000004",
                      "123456789012345", "0.1", "-2.5E+20", "7"]
        let cells = values.enumerated().map { #"<c r="\#(String(decoding: SheetEncoder.letters($0.offset), as: UTF8.self))2"><v>\#($0.element)</v></c>"# }
        let sheet = Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><is><t>h</t></is></c></row><row r="2">"# + cells.joined() + "</row>")
        let (table, _) = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: sheet))
        #expect(table.rows == [["0.045", "0.0012345678901234567", "12345678901234567000", "3.0000000000000004",
                                "123456789012345", "0.1", "-250000000000000000000", "7"]])
        for (written, read) in zip(values, table.rows[0]) { #expect(Double(written) == Double(read), "\(written)") }
    }

    /// grist's strange dates: serial 0 in a date format is midnight, as both peers read it; a
    /// negative serial no calendar shows is kept as its number, with a note naming the cell.
    @Test func serialsADateFormatCannotShow() throws {
        let (table, diagnostics) = try Self.corpus("grist-core/strange_dates.xlsx")
        #expect(table.columns.first == "a")
        #expect(table.rows.first?[8] == "00:00:00")
        // J2's serial is past 9999-12-31 (openpyxl warns and calls it an error): kept, and named.
        #expect(table.rows.first?[9] == "6281228502068")
        let past = try #require(diagnostics.first { $0.code.rawValue == "xlsx.untyped-dates" })
        #expect(past.message.rendered(in: .english).contains("(the first: J2, 6281228502068)"))

        let styles = #"<styleSheet xmlns="\#(WorkbookParts.main)"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>"#
        let sheet = Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><is><t>日期</t></is></c></row><row r="2"><c r="A2" s="1"><v>-0.25</v></c></row>"#
            + #"<row r="3"><c r="A3" s="1"><v>45936</v></c></row>"#)
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/workbook.xml", Array(WorkbookParts.workbook(names: ["S"]).utf8))
        try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: 1).utf8))
        try zip.entry("xl/styles.xml", Array(styles.utf8))
        try zip.entry("xl/worksheets/sheet1.xml", Array(sheet.utf8))
        try zip.finish()
        let (dates, notes) = try XLSXReaderTests.read(bytes)
        #expect(dates.rows == [["-0.25"], ["2025-10-06"]])
        let note = try #require(notes.first { $0.code.rawValue == "xlsx.untyped-dates" })
        #expect(note.message.rendered(in: .english).contains("A2, -0.25"))
    }

    /// A cell that refers to a shared text the workbook lacks is named in a warning, not dropped
    /// without a word.
    @Test func missingSharedTextsAreNamed() throws {
        let sheet = Self.sheet(#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>7</v></c><c r="B2"><v>5</v></c></row>"#)
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/workbook.xml", Array(WorkbookParts.workbook(names: ["S"]).utf8))
        try zip.entry("xl/_rels/workbook.xml.rels", Array(WorkbookParts.workbookRelationships(sheets: 1).utf8))
        try zip.entry("xl/sharedStrings.xml", Array(Self.sharedStrings.utf8))
        try zip.entry("xl/worksheets/sheet1.xml", Array(sheet.utf8))
        try zip.finish()
        let (table, diagnostics) = try XLSXReaderTests.read(bytes)
        #expect(table.rows == [["", "5"]])
        let warning = try #require(diagnostics.first { $0.code.rawValue == "xlsx.missing-shared-strings" })
        #expect(warning.severity == .warning && warning.message.rendered(in: .english).contains("(the first: A2)"))
    }

    /// Rows above the table that are empty are named: row 1 of the table is not row 1 of the sheet.
    @Test func whereTheTableStarts() throws {
        let sheet = Self.sheet(#"<row r="4"><c r="B4" t="inlineStr"><is><t>名稱</t></is></c></row><row r="5"><c r="B5"><v>1</v></c></row>"#)
        let (table, diagnostics) = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: sheet))
        #expect(table.columns == ["", "名稱"] && table.rows == [["", "1"]])
        let note = try #require(diagnostics.first { $0.code.rawValue == "xlsx.starts-at" })
        #expect(note.location?.line == 4)
        // A table from row 1 has no such note.
        let fromRowOne = Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><is><t>名稱</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>"#)
        #expect(!Self.codes(try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: fromRowOne)).1).contains("xlsx.starts-at"))
    }

    /// autopoi's template: a merged title with a line break in it is named on one line (⏎), so a
    /// log's reader sees one diagnostic per line.
    @Test func aTitleWithALineBreakIsOneLine() throws {
        let (_, diagnostics) = try Self.corpus("autopoi/testNextMarge.xlsx")
        let title = try #require(diagnostics.first { $0.code.rawValue == "xlsx.title-row" })
        let line = title.rendered(in: .english)
        #expect(!line.contains("\n") && line.contains("控制模式与设定⏎端口设置及数据"), "\(line)")
    }

    /// A sheet whose rows come twice or out of order (a generator appended rows 1–5 after Excel's
    /// own): every row is read where it stands in the file, none dropped, and a warning says the
    /// table follows the file, not the sheet's numbers.
    @Test func rowsOutOfOrderAreReadAndNamed() throws {
        let sheet = Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><is><t>Client Name</t></is></c></row>"#
            + #"<row r="1"><c r="B1" t="inlineStr"><is><t>ACME</t></is></c></row>"#
            + #"<row r="2"><c r="B2" t="inlineStr"><is><t>2400%</t></is></c></row>"#
            + #"<row r="2"><c r="A2" t="inlineStr"><is><t>Share</t></is></c></row>"#)
        let (table, diagnostics) = try XLSXReaderTests.read(try XLSXReaderTests.workbook(sheet: sheet))
        #expect(table.columns == ["Client Name"])
        #expect(table.rows == [["", "ACME"], ["", "2400%"], ["Share"]])
        let warning = try #require(diagnostics.first { $0.code.rawValue == "xlsx.rows-out-of-order" })
        #expect(warning.message.rendered(in: .english).contains("row 1 again after row 1"))
    }

    /// A package without its workbook part (read-excel-file's invalid-file-structure test): the
    /// worksheets are found by their part names, in order, with a warning; calamine reads it so.
    @Test func worksheetsWithoutAWorkbookPart() throws {
        var bytes: [UInt8] = []
        let zip = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        try zip.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try zip.entry("xl/sharedStrings.xml", Array(Self.sharedStrings.utf8))
        try zip.entry("xl/worksheets/sheet10.xml", Array(Self.sheet(#"<row r="1"><c r="A1" t="inlineStr"><is><t>十</t></is></c></row>"#).utf8))
        try zip.entry("xl/worksheets/sheet2.xml", Array(Self.twoRows.utf8))
        try zip.finish()
        let (table, diagnostics) = try XLSXReaderTests.read(bytes)
        #expect(table.name == "sheet2" && table.columns == ["名稱", "金額"] && table.rows == [["房租", "32000"]])
        #expect(Self.codes(diagnostics).contains("xlsx.no-workbook-part"))
        #expect(try XLSXReaderTests.read(bytes, options: ["sheet": "sheet10"]).0.columns == ["十"])
        // No worksheet either: not a workbook.
        var empty: [UInt8] = []
        let other = try ZipWriter { (piece) throws(ZipError) in empty += piece }
        try other.entry("_rels/.rels", Array(WorkbookParts.rootRelationships.utf8))
        try other.finish()
        do throws(Diagnostic) { _ = try XLSXReaderTests.read(empty); Issue.record("read") } catch {
            #expect(error.code.rawValue == "xlsx.not-a-workbook")
        }
    }
}
