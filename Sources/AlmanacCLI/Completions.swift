import AlmanacAudit
import AlmanacCore
import AlmanacKit

/// What shell completion offers for an option's value: the built-in formats, the audit's checks,
/// the locales Almanac speaks. (Files complete as files: `completion: .file()` on the arguments.)
enum Completions {
    /// The formats `--to` writes and `--from` reads, by id (`ics`, `csv`, `xcstrings`).
    static var writtenFormats: [String] { BuiltInFormats.codecs.map(\.format).filter(\.canWrite).map(\.id) }
    static var readFormats: [String] { BuiltInFormats.codecs.map(\.format).filter(\.canRead).map(\.id) }

    /// Every `--option` name the built-in formats and converters read, ready for its value.
    static var formatOptions: [String] { BuiltInFormats.registry.declaredOptionNames.sorted().map { $0 + "=" } }

    /// The audit's checks, by id.
    static var checks: [String] { AuditRules.descriptions.map(\.id) }

    /// The locales the four apps' catalogs use.
    static let catalogLocales = ["en", "zh-Hans", "zh-Hant"]

    /// The regions people format for (`--locale`).
    static let regions = ["en-US", "zh-TW", "zh-CN", "zh-HK", "zh-Hant", "zh-Hans", "en"]

    /// Character sets people name (`--encoding`).
    static let encodings = ["utf-8", "utf-16", "utf-16le", "utf-16be", "big5", "gb18030", "gbk", "shift_jis", "windows-1252", "latin1"]
}
