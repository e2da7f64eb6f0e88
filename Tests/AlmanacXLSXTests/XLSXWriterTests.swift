import AlmanacICU
import AlmanacKit
import AlmanacBytes
import Foundation
import Synchronization
import Testing
@testable import AlmanacXLSX
@testable import AlmanacZip

/// Workbooks as a person in Taipei, Shanghai or New York opens them: typed cells in the region's
/// formats, the parts every spreadsheet needs, the same bytes for the same input.
struct XLSXWriterTests {
    static let registry = BuiltInFormats.registry

    static func path(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(relative).standardized.path
    }

    /// Converts an example (or any file) to xlsx and opens the result.
    static func workbook(_ file: String, locale: String, options: [String: String] = [:], via: ModelKind? = nil) throws -> (archive: ZipArchive, report: ConversionReport) {
        let captured = Mutex<[UInt8]>([])
        let context = CodecContext(locale: try LocaleID(locale), timeZone: try TimeZoneID("Asia/Taipei"),
                                   options: CodecOptions(options.merging(["today": "2025-12-01"]) { first, _ in first }))
        var conversion = Conversion(registry: registry, target: try registry.require("xlsx"), context: context) { piece in
            captured.withLock { $0 += piece }
        }
        conversion.firstPassThreshold = 0
        conversion.via = via
        let report = conversion.run(.file(path(file)), to: .standardOutput)
        return (try ZipArchive(captured.withLock { $0 }), report)
    }

    static func part(_ archive: ZipArchive, _ name: String) throws -> String {
        let entry = try #require(archive.entry(named: name), "\(name)")
        return String(decoding: try archive.data(entry), as: UTF8.self)
    }

    /// The parts of a JellySave ledger in Taipei (every sheet) and of Retire Time's days, as
    /// golden files: a change to what a spreadsheet is given shows up in review.
    /// `ALMANAC_UPDATE_GOLDEN=1 swift test --filter XLSXWriterTests` rewrites them.
    @Test(arguments: [
        ("../../Examples/jellysave-backup.json", "zh-TW", ["sheet": "all"], "jellysave-zh-TW"),
        ("../../Examples/jellysave-backup.json", "en-US", ["sheet": "all"], "jellysave-en-US"),
        ("../../Examples/retiretime-backup.json", "zh-TW", [:], "retiretime-zh-TW"),
        ("../../Examples/family-calendar.ics", "zh-CN", ["relative": "yes"], "family-zh-CN"),
    ])
    func matchesTheGoldenParts(file: String, locale: String, options: [String: String], golden: String) throws {
        let (archive, report) = try Self.workbook(file, locale: locale, options: options)
        #expect(report.status == .converted, "\(report.diagnostics)")
        let folder = Self.path("Fixtures/Golden/\(golden)")
        let update = ProcessInfo.processInfo.environment["ALMANAC_UPDATE_GOLDEN"] == "1"
        if update { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for entry in archive.entries {
            let text = try Self.part(archive, entry.name)
            let file = folder + "/" + entry.name.replacingOccurrences(of: "/", with: "_")
            if update { try text.write(toFile: file, atomically: true, encoding: .utf8) }
            let expected = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text == expected, "\(golden): \(entry.name); regenerate with ALMANAC_UPDATE_GOLDEN=1 if the change is intended")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == archive.entries.map { $0.name.replacingOccurrences(of: "/", with: "_") }.sorted())
    }

    /// The money and date formats each region reads as its own.
    @Test func regionFormats() {
        let taipei = RegionFormats(locale: .taiwan, rocDates: false, rounding: .cash)
        #expect(taipei.amount("TWD") == "\"$\"#,##0")
        #expect(taipei.amount("USD") == "\"US$\"#,##0.00")
        #expect(taipei.amount("BTC") == "\"BTC \"#,##0.00000000")
        #expect(taipei.date == "[$-404]yyyy/m/d")
        #expect(taipei.time == "[$-404]AM/PMh:mm")
        let newYork = RegionFormats(locale: .americanEnglish, rocDates: false, rounding: .cash)
        #expect(newYork.amount("TWD") == "\"NT$\"#,##0")
        #expect(newYork.amount("USD") == "\"$\"#,##0.00")
        #expect(newYork.date == "[$-409]m/d/yyyy")
        #expect(newYork.time == "[$-409]h:mm AM/PM")
        let shanghai = RegionFormats(locale: .mainlandChina, rocDates: false, rounding: .cash)
        #expect(shanghai.amount("CNY") == "\"¥\"#,##0.00")
        #expect(shanghai.time == "[$-804]HH:mm" || shanghai.time == "[$-804]hh:mm")
        #expect(RegionFormats(locale: .taiwan, rocDates: true, rounding: .cash).date == "[$-404]\"民國\"e/m/d")
        #expect(RegionFormats(locale: .taiwan, rocDates: false, rounding: .standard).amount("TWD") == "\"$\"#,##0.00")
    }

    /// Serial numbers as Excel counts days: 1900-03-01 is 61 (after the 29 February 1900 Excel
    /// counts), 1900-02-28 is 59, and a day before 1900 is no date at all.
    @Test func serialNumbers() {
        func serial(_ text: String) -> String? { text.withByteView { Serial.dateTime($0)?.text } }
        #expect(serial("1900-01-01") == "1")
        #expect(serial("1900-02-28") == "59")
        #expect(serial("1900-03-01") == "61")
        #expect(serial("1970-01-01") == "25569")
        #expect(serial("2025-10-06") == "45936")
        #expect(serial("2025-10-06T18:00:00") == "45936.75")
        #expect(serial("2025-10-06T00:00") == "45936")
        #expect(serial("1899-12-31") == nil)
        #expect(serial("2025-02-30") == nil)
        #expect(serial("2025/10/06") == nil)
        #expect("09:30:00".withByteView { Serial.time($0) } == "0.3958333333")
    }

    /// A typed column's cell that is not of its type stays text, and the conversion says so.
    @Test func cellsThatAreNotTheirTypeStayText() throws {
        let table = Table(columns: ["名稱", "日期", "金額", "幣別"], rows: [["A", "2025-10-06", "12.5", "TWD"], ["B", "下週一", "abc", "TWD"]],
                          cellTypes: [.text, .date, .amount(currency: nil, currencyColumn: 3), .text])
        let encoded = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan))
        let archive = try ZipArchive(encoded.bytes)
        let sheet = try Self.part(archive, "xl/worksheets/sheet1.xml")
        #expect(sheet.contains(#"<c r="B2" s="2"><v>45936</v></c>"#))
        #expect(sheet.contains(#"<c r="C2" s="7"><v>12.5</v></c>"#))
        #expect(sheet.contains(#"<c r="B3" t="inlineStr"><is><t>下週一</t></is></c>"#))
        #expect(sheet.contains(#"<c r="C3" t="inlineStr"><is><t>abc</t></is></c>"#))
        #expect(encoded.diagnostics.map(\.code) == ["xlsx.untyped-cells"])
        #expect(encoded.diagnostics.first?.message.rendered(in: .english).contains("2 cells") == true)
    }

    /// Text is stored as text: a formula-looking cell is a string, XML's specials and the control
    /// characters XML cannot hold are escaped the way Excel reads back, spaces kept.
    @Test func textIsNeverAFormula() throws {
        let table = Table(columns: ["text"], rows: [["=HYPERLINK(\"http://x\")"], ["a & b < c > d"], ["bell\u{07}end"], [" padded "], ["_x0041_"]])
        let encoded = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .americanEnglish))
        let sheet = try Self.part(try ZipArchive(encoded.bytes), "xl/worksheets/sheet1.xml")
        #expect(!sheet.contains("<f>"))
        #expect(sheet.contains(#"<t>=HYPERLINK("http://x")</t>"#))
        #expect(sheet.contains("<t>a &amp; b &lt; c &gt; d</t>"))
        #expect(sheet.contains("<t>bell_x0007_end</t>"))
        #expect(sheet.contains(#"<t xml:space="preserve"> padded </t>"#))
        #expect(sheet.contains("<t>_x005F_x0041_</t>"))
    }

    /// A day's amount (gen.py's `amount_twd`, a bill, a goal's target) is a number to sum, in the
    /// money format of the currency the header names (TWD in Taipei: `"$"#,##0`); `NT$12,000` is
    /// the number 12000 in TWD. The header says the currency, so the table says it when read again.
    @Test func daysAmountsAreNumbers() throws {
        let (archive, report) = try Self.workbook("Fixtures/days-with-amounts.csv", locale: "zh-TW", via: .agenda)
        let sheet = try Self.part(archive, "xl/worksheets/sheet1.xml")
        let header = try #require(sheet.firstMatch(of: /<c r="([A-Z]+)1" s="1" t="inlineStr"><is><t>金額（TWD）<\/t>/)?.1)
        let style = try #require(sheet.firstMatch(of: /<c r="[A-Z]+2" s="(\d+)"><v>3587251<\/v><\/c>/)?.1)
        #expect(sheet.contains(#"<c r="\#(header)2" s="\#(style)"><v>3587251</v></c>"#))
        #expect(sheet.contains(#"<c r="\#(header)3" s="\#(style)"><v>1097135.5</v></c>"#))
        #expect(sheet.contains(#"<c r="\#(header)4" s="\#(style)"><v>12000</v></c>"#))
        let styles = try Self.part(archive, "xl/styles.xml")
        let formats = styles.matches(of: /<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/).map { (String($0.1), String($0.2)) }
        let cellFormats = styles.firstMatch(of: /<cellXfs[^>]*>(.*)<\/cellXfs>/).map { String($0.1) }?
            .matches(of: /<xf numFmtId="(\d+)"/).map { String($0.1) } ?? []
        let id = try #require(Int(style).flatMap { $0 < cellFormats.count ? cellFormats[$0] : nil })
        #expect(formats.first { $0.0 == id }?.1 == "&quot;$&quot;#,##0")
        #expect(!report.diagnostics.contains { $0.code == "xlsx.untyped-cells" })
    }

    /// A text's first cell holds it inline and its later cells refer to it in the shared
    /// strings, escaped and with its spaces kept there too; a text too long to share stays
    /// inline every time; openpyxl-style readers and ours read the same table back.
    @Test func repeatedTextIsShared() throws {
        let long = String(repeating: "長", count: SharedStrings.maxTextBytes / 3 + 1)
        let rows = [["生日", "a & <b>", " padded ", long], ["生日", "a & <b>", " padded ", long], ["工作", "生日", "", long]]
        let table = Table(columns: ["分類", "備註", "空白", "長文"], rows: rows)
        let bytes = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan)).bytes
        let archive = try ZipArchive(bytes)
        let sheet = try Self.part(archive, "xl/worksheets/sheet1.xml")
        #expect(sheet.contains(#"<c r="A2" t="inlineStr"><is><t>生日</t></is></c>"#))
        #expect(sheet.contains(#"<c r="A3" t="s"><v>0</v></c>"#))
        #expect(sheet.contains(#"<c r="B4" t="s"><v>0</v></c>"#))
        #expect(sheet.contains(#"<c r="D4" t="inlineStr">"#))
        let strings = try Self.part(archive, "xl/sharedStrings.xml")
        #expect(strings.hasSuffix(#"count="4" uniqueCount="3"><si><t>生日</t></si><si><t>a &amp; &lt;b&gt;</t></si>"#
            + #"<si><t xml:space="preserve"> padded </t></si></sst>"#))
        let (back, _) = try XLSXReaderTests.read(bytes)
        #expect(back.rows == rows)
    }

    /// The texts looked at for sharing are bounded: once the table is full, a new text stays
    /// inline however often it comes, and the texts held are still shared.
    @Test func sharedStringsAreBounded() {
        var strings = SharedStrings()
        func number(_ text: String) -> Int? { text.withByteView { strings.number($0) } }
        #expect(number("first") == nil)
        #expect(number("first") == 0)
        for index in 1..<SharedStrings.maxTexts { _ = number("text \(index)") }
        #expect(number("new") == nil)
        #expect(number("new") == nil)
        #expect(number("first") == 0)
        #expect(number("text 7") == 1)
        #expect(strings.uniqueCount == 2)
    }

    /// What a sheet cannot hold is said, never written wrong: text past a cell's 32,767
    /// characters is cut there with a warning naming the cell; rows past a sheet's last fail the
    /// conversion before anything is written.
    @Test func sheetLimits() throws {
        let long = String(repeating: "長", count: 40_000)
        let table = Table(columns: ["名稱", "備註"], rows: [["a", "short"], ["b", long]])
        let encoded = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan))
        #expect(encoded.diagnostics.map(\.code) == ["xlsx.long-text"])
        #expect(encoded.diagnostics.first?.message.rendered(in: .english).contains("B3") == true)
        let sheet = try Self.part(try ZipArchive(encoded.bytes), "xl/worksheets/sheet1.xml")
        #expect(sheet.contains("<t>" + String(repeating: "長", count: SheetEncoder.maxTextLength) + "</t>"))
        #expect(!sheet.contains(String(repeating: "長", count: SheetEncoder.maxTextLength + 1)))

        var written: [UInt8] = []
        let formats = RegionFormats(locale: .taiwan, rocDates: false, rounding: .cash)
        let writer = try XLSXItemWriter(Table(columns: ["n"]), styles: StyleBook(formats: formats), language: .english, rowLimit: 4) {
            (piece) throws(Diagnostic) in written += piece
        }
        try writer.write(.rows(TableRows([["1"], ["2"], ["3"]])))
        #expect(throws: Diagnostic.self) { try writer.write(.rows(TableRows([["4"]]))) }
        #expect(throws: Diagnostic.self) {
            _ = try XLSXCodec().encode(.table(Table(columns: (0...SheetEncoder.maxColumns).map(String.init))), context: CodecContext())
        }
    }

    /// Sheet names Excel accepts: 31 characters, no []:*?/\, unique.
    @Test func sheetNames() {
        #expect(WorkbookParts.sheetNames(["帳戶", "帳戶", "a/b:c", "", String(repeating: "長", count: 40), "'quoted'"])
            == ["帳戶", "帳戶 (2)", "a_b_c", "Sheet4", String(repeating: "長", count: 31), "quoted"])
    }

    /// The same input gives the same bytes.
    @Test func sameInputSameBytes() throws {
        let table = Table(columns: ["a", "b"], rows: [["1", "2"]])
        let first = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan)).bytes
        let second = try XLSXCodec().encode(.table(table), context: CodecContext(locale: .taiwan)).bytes
        #expect(first == second)
    }
}
