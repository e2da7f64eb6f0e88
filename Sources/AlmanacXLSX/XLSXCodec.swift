public import AlmanacCore
import AlmanacICU
import AlmanacZip
import AlmanacBytes
import Foundation

/// Office Open XML workbooks (SpreadsheetML, ECMA-376), the format Excel, Numbers, LibreOffice
/// and Google Sheets open (checked here with LibreOffice, gnumeric and openpyxl): a table's cells typed (numbers, dates, money in the region's formats,
/// text never a formula) with the header row frozen. Tables made for it hold machine values
/// (`typedCells`), so a ledger's amounts sum and its dates sort in any spreadsheet.
public struct XLSXCodec: StreamingEncoder, StreamingDecoder {
    public init() {}

    public static let format = FormatDescription(
        id: "xlsx",
        name: "Excel workbook",
        summary: "Excel workbooks (.xlsx): amounts as numbers in the region's money format (TWD as $1,235 in Taipei, NT$1,235 in New York), dates as dates, the header frozen.",
        aliases: ["excel", "spreadsheet"],
        extensions: [".xlsx"],
        mediaTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        model: .table,
        options: [
            .init(name: "sheet", summary: "The sheet to read, by name or number (default: the first); when writing a ledger, all writes every part."),
            .init(name: "calendar", summary: "Show dates in the Republic of China calendar (民國114/3/5) where the spreadsheet supports it (Excel).",
                  values: ["gregorian", "roc"], defaultValue: "gregorian"),
            .init(name: "rounding", summary: "Money formats show the currency's cash digits (TWD: whole dollars) or its standard digits; the cells keep every digit.",
                  values: ["cash", "standard"], defaultValue: "cash"),
        ],
        examples: [.init(summary: "Two days with their dates and amounts, as Almanac writes them for Taipei",
                         bytesMadeBy: { Array(example) })],
        typedCells: true)

    /// The example workbook, written by the writer itself (a workbook is bytes, not text).
    static let example: Data = {
        let table = Table(columns: ["名稱", "日期", "金額", "幣別"], rows: [["媽媽生日", "2025-10-06", "1200", "TWD"], ["繳房貸", "2025-03-05", "32000", "TWD"]],
                          cellTypes: [.text, .date, .amount(currency: nil, currencyColumn: 3), .text])
        var bytes: [UInt8] = []
        let formats = RegionFormats(locale: .taiwan, rocDates: false, rounding: .cash)
        let rows = TableRows(table.rows)
        do throws(Diagnostic) {
            let writer = try XLSXItemWriter(table, styles: StyleBook(formats: formats), language: .traditionalChinese) { (piece) throws(Diagnostic) in bytes += piece }
            try writer.write(.rows(rows))
            _ = try writer.finish(.table(table))
        } catch {
            return Data()
        }
        return Data(bytes)
    }()

    public var format: FormatDescription { Self.format }

    public func identify(_ probe: Probe) -> Identification {
        // A zip whose first entry is a workbook part (Excel writes [Content_Types].xml first).
        // A password-protected workbook or an Excel 97–2003 one (a compound file holding its
        // stream) is this format's to refuse with what to do, not a file nobody recognises.
        if XLSXWorkbook.isCompoundWorkbook(probe.prefix) { return .yes }
        // A compound file named .xlsx whose directory lies past the prefix (an encrypted workbook
        // from Numbers): the workbook reader looks at the directory and says which it is.
        if probe.prefix.starts(with: XLSXWorkbook.compoundFileSignature),
           let name = probe.fileName?.lowercased(), name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") { return .yes }
        let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        guard probe.prefix.starts(with: zipSignature) else { return .no }
        let head = probe.prefix.prefix(4096)
        for marker in ["[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/"] where head.firstRange(of: Array(marker.utf8)) != nil {
            return .yes
        }
        return .cannotTell
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        try decodeByItems(input, context: context)
    }

    /// The sheet's rows as a table, in batches as they inflate: text as stored, numbers as
    /// written, dates and times (cells in a date format) as ISO text.
    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        let decoder = try XLSXDecoder(input, sheet: context.options["sheet"])
        let (table, diagnostics) = try decoder.decode(into: &sink, fileName: input.fileName)
        return Decoded(document: .table(table), diagnostics: diagnostics)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .table = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .table(let table) = frame else {
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        let locale = context.locale ?? .americanEnglish
        let formats = RegionFormats(locale: locale, rocDates: context.options["calendar"] == "roc",
                                    rounding: context.options["rounding"] == "standard" ? .standard : .cash)
        return try XLSXItemWriter(table, styles: StyleBook(formats: formats), language: Language(tag: locale.bcp47), output: output)
    }
}
