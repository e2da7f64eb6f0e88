@testable import AlmanacCSV
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

/// What a person sees when the exported CSV opens in a spreadsheet: Gnumeric's ssconvert reads it
/// as Excel would and writes its own XML, where each cell says whether it is text, a number or a
/// date. `.ci/run` installs gnumeric; elsewhere the test says so and is skipped.
@Suite(.enabled(if: Spreadsheet.available || ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil,
                "needs ssconvert (apt install gnumeric)"))
struct SpreadsheetTests {
    @Test func exportOpensWithTheRightCharactersNumbersAndDates() throws {
        let agenda = Agenda(items: [
            CalendarItem(uid: "a", title: "媽媽生日", notes: "=1+2", start: .date(try CivilDate(year: 2025, month: 10, day: 6)),
                         categories: ["生日"]),
        ])
        let (document, _) = try TableConverter().convert(.agenda(agenda), to: .table, context: CodecContext(locale: .taiwan))
        let bytes = try CSVCodec.csv.encode(document, context: CodecContext()).bytes
        let cells = try Spreadsheet.cells(of: bytes)
        #expect(cells["A1"] == .text("名稱"))
        #expect(cells["A2"] == .text("媽媽生日"))
        #expect(cells["B2"]?.isDate == true)       // 2025/10/6 became a date
        #expect(cells["E2"] == .text("=1+2"))     // shown, not run
    }

    @Test func numbersStayNumbers() throws {
        let table = Table(columns: ["name", "amount"], rows: [["-loss", "-1234"], ["+886 2 1234", "56.5"]])
        let bytes = try CSVCodec.csv.encode(.table(table), context: CodecContext()).bytes
        let cells = try Spreadsheet.cells(of: bytes)
        #expect(cells["A2"] == .text("-loss"))
        #expect(cells["B2"] == .number("-1234"))
        #expect(cells["A3"] == .text("+886 2 1234"))
        #expect(cells["B3"] == .number("56.5"))
    }
}

enum Spreadsheet {
    enum Cell: Equatable {
        case text(String)
        case number(String)
        case date(String)
        var isDate: Bool { if case .date = self { true } else { false } }
    }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ssconvert") }

    /// Cells by A1 address, as Gnumeric typed them.
    static func cells(of csv: [UInt8]) throws -> [String: Cell] {
        let directory = NSTemporaryDirectory() + "almanac-sheet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(csv).write(to: URL(fileURLWithPath: directory + "/in.csv"))
        _ = ExternalCommand.run(["ssconvert", directory + "/in.csv", directory + "/out.gnumeric"])
        let xml = ExternalCommand.run(["gzip", "-dc", directory + "/out.gnumeric"], mergingErrors: false).output
        var cells: [String: Cell] = [:]
        for match in xml.matches(of: /<gnm:Cell Row="(\d+)" Col="(\d+)" ValueType="(\d+)"( ValueFormat="[^"]*")?>([^<]*)<\/gnm:Cell>/) {
            let address = String(UnicodeScalar(UInt8(65 + Int(match.2)!))) + String(Int(match.1)! + 1)
            let value = String(match.5)
            cells[address] = match.3 == "60" ? .text(value) : match.4 != nil ? .date(value) : .number(value)
        }
        return cells
    }
}
