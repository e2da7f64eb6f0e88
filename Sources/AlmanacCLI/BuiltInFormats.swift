public import AlmanacCore
import AlmanacCSV
import AlmanacBackups
import AlmanacCatalogs
import AlmanacICalendar

/// The formats Almanac ships, as one explicit list (a user's tool adds its own after these).
public enum BuiltInFormats {
    public static var codecs: [any Codec] {
        [ICalendarCodec(), XCalCodec(), JCalCodec(), CSVCodec.csv, CSVCodec.tsv, TableJSONCodec(lines: false),
         TableJSONCodec(lines: true), StringsCodec(), StringsdictCodec(), XCStringsCodec(), XLIFFCodec()] + BackupCodec.all + ModelJSONCodec.all
    }

    public static var converters: [any DocumentConverter] { [TableConverter(), CatalogTableConverter(), BackupConverter()] }

    public static var registry: FormatRegistry { FormatRegistry(codecs, converters: converters) }
}
