import AlmanacKit
import Foundation
import Testing
@testable import AlmanacXLSX

/// How a sheet becomes a table: elapsed times are lengths of time, a colour is no date, a title
/// row and empty rows are named (and `--strict` refuses the title's drop), a number in the
/// header stays a number, and a workbook Almanac cannot open is recognised and refused with
/// what to do (Fixtures/Readers/SOURCES.md).
struct WorkbookLayoutTests {
    private func fixture(_ name: String) -> String { XLSXReaderTests.path("Fixtures/Readers/" + name) }

    @Test func elapsedTimesAreDurations() throws {
        let (table, diagnostics) = try XLSXReaderTests.fixture("openpyxl-budget.xlsx")
        #expect(table.columns == ["Item", "Hours", "Offset", "-1.2"])
        #expect(table.rows == [["Rent", "36:00:00", "2", "5"], ["Food", "1:30:00", "3", "6"], ["Total", "48:00:00"]])
        #expect(diagnostics.map(\.code) == [.xlsxTitleRow, .xlsxEmptyRows])
        #expect(diagnostics[1].message.arguments == ["5–6"])
        // The title row is content not read (its catalog entry says it reports a loss, and
        // --strict refuses it); empty rows are not. So too when read back from a report's JSON.
        #expect(diagnostics.map(Losses.isLoss) == [true, false])
        let decoded = try JSONDecoder().decode([Diagnostic].self, from: JSONEncoder().encode(diagnostics))
        #expect(decoded.map(Losses.isLoss) == [true, false])
        // The same length in a 1904 workbook.
        #expect(try XLSXReaderTests.fixture("openpyxl-1904-durations.xlsx").0.rows == [["Run", "36:00:00"]])
    }

    @Test func formatCodes() {
        let cases: [(String, CellStyles.DateKind?)] = [
            ("[h]:mm:ss", .duration), ("[mm]:ss", .duration), ("[s]", .duration), ("[Red][h]:mm", .duration),
            ("[White]0.0", nil), ("[Color12]#,##0", nil), ("[Green]General", nil), ("[<=100]0;[Red]0", nil),
            ("h:mm", .time), ("mm:ss", .time), ("[$-404]e/m/d", .date), ("yyyy-mm-dd hh:mm", .dateTime), ("0.00E+00", nil),
        ]
        for (code, kind) in cases { #expect(CellStyles.kind(of: code) == kind, "\(code)") }
        #expect(CellStyles.builtIn(46) == .duration)
        #expect(CellStyles.durationText(1.5) == "36:00:00")
        #expect(CellStyles.durationText(-0.25) == "-6:00:00")
        #expect(CellStyles.durationText(1.0 / 86_400 * 61) == "0:01:01")
        #expect(CellStyles(kinds: [], date1904: true).text(serial: 1.5, kind: .duration) == "36:00:00")
    }

    /// The title row is content the table does not hold: `--strict` writes nothing. Empty rows
    /// hold nothing and are only named.
    @Test func strictRefusesTheTitleRow() throws {
        let registry = BuiltInFormats.registry
        var conversion = Conversion(registry: registry, target: try registry.require("csv"))
        conversion.strict = true
        let output = NSTemporaryDirectory() + "almanac-budget-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let report = conversion.run(.file(fixture("openpyxl-budget.xlsx")), to: .file(output))
        #expect(report.diagnostics.map(\.code).contains("convert.strict"))
        #expect(!FileManager.default.fileExists(atPath: output))
        conversion.strict = false
        let written = conversion.run(.file(fixture("openpyxl-budget.xlsx")), to: .file(output))
        #expect(written.status == .converted)
        // The header's number is not guarded as a formula (text that starts with "-" would be).
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF] + Array("Item,Hours,Offset,-1.2\r\n".utf8)), "\(String(decoding: bytes, as: UTF8.self))")
    }

    /// A password-protected workbook and an Excel 97–2003 one are recognised without `--from`
    /// and refused with what to do; a Word file in the same container is not taken for either.
    @Test func workbooksAlmanacCannotOpen() throws {
        let registry = BuiltInFormats.registry
        for (name, code) in [("msoffcrypto-example_password.xlsx", "xlsx.encrypted"), ("msoffcrypto-plain.xls", "xlsx.legacy")] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
            // Named anything: the content says what it is.
            let identified = try registry.identify(Probe(prefix: bytes, fileName: "download.bin"))
            #expect(identified.codec.format.id == "xlsx", "\(name)")
            do {
                _ = try XLSXReaderTests.read(bytes)
                Issue.record("\(name) was read")
            } catch {
                #expect(error.code.rawValue == code, "\(name)")
            }
        }
        let word = Array(try Data(contentsOf: URL(fileURLWithPath: fixture("msoffcrypto-plain.doc"))))
        #expect(XLSXCodec().identify(Probe(prefix: word, fileName: "letter.doc")) == .no)
    }
}
