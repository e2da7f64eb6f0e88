public import AlmanacCore
import AlmanacICU
import AlmanacZip

/// Office Open XML workbooks (SpreadsheetML, ECMA-376), as Excel, Numbers, LibreOffice and
/// Google Sheets open them: a table's cells typed (numbers, dates, money in the region's formats,
/// text never a formula) with the header row frozen. Tables made for it hold machine values
/// (`typedCells`), so a ledger's amounts sum and its dates sort in any spreadsheet.
public struct XLSXCodec: StreamingEncoder {
    public init() {}

    public static let format = FormatDescription(
        id: "xlsx",
        name: "Excel workbook",
        summary: "Spreadsheets as Excel, Numbers, LibreOffice and Google Sheets open them: amounts as numbers in the region's money format (TWD as $1,235 in Taipei, NT$1,235 in New York), dates as dates, the header frozen.",
        aliases: ["excel", "spreadsheet"],
        extensions: [".xlsx"],
        mediaTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        model: .table,
        canRead: false,
        options: [
            .init(name: "calendar", summary: "Show dates in the Republic of China calendar (民國114/3/5) where the spreadsheet supports it (Excel).",
                  values: ["gregorian", "roc"], defaultValue: "gregorian"),
            .init(name: "rounding", summary: "Money formats show the currency's cash digits (TWD: whole dollars) or its standard digits; the cells keep every digit.",
                  values: ["cash", "standard"], defaultValue: "cash"),
        ],
        typedCells: true)

    public var format: FormatDescription { Self.format }

    public func identify(_ probe: Probe) -> Identification {
        // A zip whose first entry is a workbook part (Excel writes [Content_Types].xml first).
        let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        guard probe.prefix.starts(with: zipSignature) else { return .no }
        let head = probe.prefix.prefix(4096)
        for marker in ["[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/"] where head.firstRange(of: Array(marker.utf8)) != nil {
            return .yes
        }
        return .cannotTell
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .table = document else {
            throw Diagnostic.error("convert.model-mismatch", document.kind.rawValue, format.id, ModelKind.table.rawValue)
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .table(let table) = frame else {
            throw Diagnostic.error("convert.model-mismatch", frame.kind.rawValue, format.id, ModelKind.table.rawValue)
        }
        let locale = context.locale ?? .americanEnglish
        let formats = RegionFormats(locale: locale, rocDates: context.options["calendar"] == "roc",
                                    rounding: context.options["rounding"] == "standard" ? .standard : .cash)
        return try XLSXItemWriter(table, styles: StyleBook(formats: formats), language: Language(tag: locale.bcp47), output: output)
    }
}
