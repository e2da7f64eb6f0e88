@testable import AlmanacCSV
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

func decodeTable(_ name: String, _ options: CodecOptions = [:], encoding: Charset? = nil) throws -> (Table, Decoded) {
    let decoded = try CSVCodec.csv.decode(CodecInput(contentsOf: fixturePath(name)), context: CodecContext(encoding: encoding, options: options))
    guard case .table(let table) = decoded.document else { fatalError("not a table") }
    return (table, decoded)
}

@Suite struct CSVCodecTests {
    @Test func excelInTaipeiSavesBig5() throws {
        let (table, decoded) = try decodeTable("excel-taipei-big5.csv")
        #expect(decoded.encoding == "Big5")
        #expect(table.columns == ["名稱", "日期", "類型", "備註", "金額"])
        #expect(table.rows[0] == ["媽媽生日", "民國49年9月12日", "生日", "記得訂蛋糕，地點：台北101", "NT$1,200"])
        #expect(table.rows[4][3] == "歐元旅費 €50")  // € is only in Microsoft's Big5
    }

    @Test func excelInShanghaiSavesGBK() throws {
        let (table, decoded) = try decodeTable("excel-shanghai-gbk.csv")
        #expect(decoded.encoding == "GB18030")
        #expect(table.rows[0][0] == "妈妈生日")
        #expect(table.rows[0][4] == "￥1,200")
    }

    @Test func unicodeTextIsUTF16WithTabs() throws {
        let (table, decoded) = try decodeTable("excel-utf16.csv")
        #expect(decoded.encoding == "UTF-16LE")
        #expect(table.dialect?.delimiter == "\t")
        #expect(table.rows[0][0] == "媽媽生日")
    }

    @Test func ambiguousBytesSaySo() {
        let error = #expect(throws: Diagnostic.self) { try decodeTable("ambiguous-big5.csv") }
        #expect(error?.code == "csv.ambiguous-encoding")
        #expect((try? decodeTable("ambiguous-big5.csv", encoding: .big5).0.columns) == ["媽菸第"])
    }

    @Test func delimitersAreSniffed() throws {
        #expect(try decodeTable("semicolons.csv").0.dialect?.delimiter == ";")
        let (pipes, _) = try decodeTable("pipes.csv")
        #expect(pipes.dialect?.delimiter == "|")
        #expect(pipes.rows[0] == ["Trip", "2025-07-01", "a, b, c"])
        #expect(try decodeTable("pipes.csv", ["delimiter": ","]).0.columns == ["name|date|notes"])
    }

    @Test func raggedRowsAreKeptAndReported() throws {
        let (table, decoded) = try decodeTable("spectrum/ragged.csv")
        #expect(table.rows == [["1", "2"], ["3", "4", "5", "6"]])
        #expect(decoded.diagnostics.map(\.code) == ["csv.ragged-row", "csv.ragged-row"])
        #expect(decoded.diagnostics.map(\.location?.line) == [2, 3])
    }

    @Test func headerlessFiles() throws {
        let (table, _) = try decodeTable("spectrum/simple.csv", ["header": "no"])
        #expect(table.columns == ["column1", "column2", "column3"])
        #expect(table.rows.count == 2)
    }

    @Test func writerQuotesOnlyWhatItMust() throws {
        let table = Table(columns: ["a", "b"], rows: [["plain", "with, comma"], ["say \"hi\"", "line\nbreak"], [" padded", ""]])
        let bytes = try CSVCodec.csv.encode(.table(table), context: CodecContext(options: ["bom": "no"])).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == "a,b\r\nplain,\"with, comma\"\r\n\"say \"\"hi\"\"\",\"line\nbreak\"\r\n\" padded\",\r\n")
        let excel = try CSVCodec.csv.encode(.table(table), context: CodecContext()).bytes
        #expect(excel.starts(with: [0xEF, 0xBB, 0xBF]))
    }

    /// Rows written from bytes (a stream's batch, through one pointer into room made ahead) are
    /// the rows written from strings, and read back as the guarded fields: random fields of
    /// quotes, delimiters, line breaks, blanks at the ends, formula triggers and CJK text.
    @Test func rowsWrittenFromBytesReadBackAsWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["\"", ",", ";", "\r\n", "\n", " ", "\t", "=", "-", "+", "@", "＝", "1", "a", "媽媽", "生日", "'", "\"\"", "NT$"]
        for dialect in [CSVWriter.Dialect(), CSVWriter.Dialect(delimiter: 0x09, lineEnding: "\n", byteOrderMark: false)] {
            var rows: [[String]] = []
            for _ in 0..<300 {
                rows.append((0..<4).map { _ in
                    (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                })
            }
            var fromBytes = CSVWriter(dialect)
            fromBytes.write(TableRows(rows), guardsFormulas: true)
            var fromStrings = CSVWriter(dialect)
            for row in rows { fromStrings.write(row.map(FormulaGuard.cell)) }
            let written = fromBytes.take()
            #expect(written == fromStrings.take())
            var options: CodecOptions = ["header": "no"]
            if dialect.delimiter == 0x09 { options["delimiter"] = "tab" }
            let back = try CSVCodec.csv.decode(CodecInput(bytes: written, fileName: "rows.csv"), context: CodecContext(options: options))
            guard case .table(let table) = back.document else { Issue.record("not a table"); return }
            #expect(table.rows == rows.map { $0.map(FormulaGuard.cell) })
        }
    }

    @Test func formulasAreNeutralisedButNumbersStayNumbers() {
        #expect(FormulaGuard.cell("=1+2") == "'=1+2")
        #expect(FormulaGuard.cell("@SUM(A1)") == "'@SUM(A1)")
        #expect(FormulaGuard.cell("＝HYPERLINK(\"x\")") == "'＝HYPERLINK(\"x\")")
        #expect(FormulaGuard.cell("\tcmd") == "'\tcmd")
        #expect(FormulaGuard.cell("-1234.5") == "-1234.5")
        #expect(FormulaGuard.cell("+886") == "+886")
        #expect(FormulaGuard.cell("-") == "'-")
        #expect(FormulaGuard.cell("-$32,000") == "-$32,000")
        #expect(FormulaGuard.cell("-NT$1,234.50") == "-NT$1,234.50")
        #expect(FormulaGuard.cell("-A1") == "'-A1")
        #expect(FormulaGuard.cell("-SUM(A1:A9)") == "'-SUM(A1:A9)")
        #expect(FormulaGuard.text("-1234") == "'-1234")
        #expect(FormulaGuard.cell("媽媽生日") == "媽媽生日")
    }

    @Test(arguments: [CSVCodec.csv, CSVCodec.tsv])
    func csvConformance(codec: CSVCodec) {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    @Test(arguments: [false, true])
    func jsonConformanceAndRoundTrip(lines: Bool) throws {
        let codec = TableJSONCodec(lines: lines)
        #expect(CodecConformance.problems(of: codec) == [])
        let (table, _) = try decodeTable("excel-taipei-big5.csv")
        var plain = table
        plain.dialect = nil
        let bytes = try codec.encode(.table(plain), context: CodecContext()).bytes
        #expect(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()).document == .table(plain))
    }
}
