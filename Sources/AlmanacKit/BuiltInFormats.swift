@_exported public import AlmanacCore
import AlmanacBackups
import AlmanacCatalogs
import AlmanacCSV
import AlmanacICalendar
import AlmanacXLSX

/// The formats, converters and transforms Almanac ships, as one explicit list: what `almanac`
/// uses, and what a Swift program gets with `import AlmanacKit` to run the same conversions
/// without the command line (a program's own codecs are registered after these and win).
///
/// ```swift
/// let registry = BuiltInFormats.registry
/// let conversion = Conversion(registry: registry, target: try registry.require("ics"))
/// let report = conversion.run(.file("days.csv"), to: .file("days.ics"))
/// ```
public enum BuiltInFormats {
    public static var codecs: [any Codec] {
        [ICalendarCodec(), XCalCodec(), JCalCodec(), CSVCodec.csv, CSVCodec.tsv, XLSXCodec(), TableJSONCodec(lines: false),
         TableJSONCodec(lines: true), StringsCodec(), StringsdictCodec(), XCStringsCodec(), XLIFFCodec()] + BackupCodec.all + ModelJSONCodec.all
    }

    public static var converters: [any DocumentConverter] { [TableConverter(), CatalogTableConverter(), BackupConverter()] }

    public static var transforms: [any DocumentTransform] { [ScriptDraftTransform()] }

    public static var registry: FormatRegistry { FormatRegistry(codecs, converters: converters, transforms: transforms) }
}
