internal import CICUShim
public import FoundationEssentials
// PluralCategory lives in AlmanacStrings (no system libraries); everything that imports the ICU
// bridge sees it as before.
@_exported public import AlmanacStrings

/// The plural rules of a locale: English needs `one` and `other`, Chinese only `other`.
///
/// Not thread-safe: create one per task.
public final class PluralRules {
    public enum Kind: Int32, Sendable {
        /// "1 day", "2 days".
        case cardinal = 0
        /// "1st", "2nd".
        case ordinal = 1
    }

    private let handle: OpaquePointer
    public let locale: LocaleID
    public let kind: Kind

    public init(locale: LocaleID, kind: Kind = .cardinal) throws(ICUError) {
        var status: Int32 = 0
        guard let handle = alm_plural_open(locale.icuIdentifier, kind.rawValue, &status), alm_icu_failure(status) == 0
        else { throw ICUError.status(status, .unknownLocale, subject: locale.icuIdentifier) }
        self.handle = handle
        self.locale = locale
        self.kind = kind
    }

    deinit { alm_plural_close(handle) }

    /// The categories the locale uses, in CLDR order.
    public var categories: [PluralCategory] {
        var status: Int32 = 0
        return collect(alm_plural_keywords(handle, &status)).compactMap(PluralCategory.init(rawValue:)).sorted()
    }

    public func category(for value: Int) -> PluralCategory {
        (try? category(decimalText: String(value))) ?? .other
    }

    public func category(for value: Decimal) -> PluralCategory {
        (try? category(decimalText: value.exactText)) ?? .other
    }

    /// The category for a number as written: visible fraction digits count ("1.0" is `other` in English).
    public func category(decimalText: String) throws(ICUError) -> PluralCategory {
        let utf8 = Array(decimalText.utf8)
        let keyword = try utf8.withUnsafeBufferPointer { (bytes) throws(ICUError) in
            try bytes.withMemoryRebound(to: CChar.self) { (chars) throws(ICUError) in
                try utf16Output(subject: decimalText, kind: .invalidNumber) { buffer, capacity, status in
                    alm_plural_select_decimal(handle, chars.baseAddress, Int32(chars.count), buffer, capacity, &status)
                }
            }
        }
        return PluralCategory(rawValue: keyword) ?? .other
    }
}
