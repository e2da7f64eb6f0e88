internal import CICUShim
public import FoundationEssentials

/// Formats money in a currency for a locale: TWD in Taipei as `$1,234,568`, in New York as
/// `NT$1,234,568`, with the rounding, symbol and negative style a user chooses.
public struct CurrencyFormat: Sendable {
    /// How many fraction digits to show.
    public enum Rounding: String, Sendable, CaseIterable {
        /// The currency's digits in cash use: TWD 0 (`$1,234,568`), how prices are written in Taiwan.
        case cash
        /// The currency's standard digits: TWD 2 (`$1,234,567.50`).
        case standard
    }

    /// How to show negative amounts.
    public enum Negatives: String, Sendable, CaseIterable {
        /// `-$1,234`.
        case minus
        /// `($1,234)`, as accountants write losses.
        case accounting
    }

    /// Which symbol to show.
    public enum Symbol: Hashable, Sendable {
        /// The locale's own symbol: `$` for TWD in zh-TW, `NT$` in en-US and zh-CN.
        case locale
        /// The ISO code: `TWD 1,234,568`.
        case isoCode
        /// An explicit symbol in place of the locale's: `.explicit("NT$")`.
        case explicit(String)
    }

    public let currency: String
    public let locale: LocaleID
    public let rounding: Rounding
    public let negatives: Negatives
    public let symbol: Symbol
    private let formatter: NumberFormat

    public init(
        currency: String, locale: LocaleID, rounding: Rounding = .cash, negatives: Negatives = .minus,
        symbol: Symbol = .locale
    ) throws(ICUError) {
        let code = currency.uppercased()
        guard code.utf8.count == 3, code.utf8.allSatisfy(ASCII.isUppercase) else {
            throw ICUError(.invalidNumber, subject: currency, detail: "not an ISO 4217 currency code")
        }
        var skeleton = "currency/\(code) "
        skeleton += rounding == .cash ? "precision-currency-cash" : "precision-currency-standard"
        // Amounts people read are rounded half up (四捨五入: 2.5 → 3), not half to even as ICU and
        // banks do by default.
        skeleton += " rounding-mode-half-up"
        if negatives == .accounting { skeleton += " sign-accounting" }
        if symbol == .isoCode { skeleton += " unit-width-iso-code" }
        self.formatter = try NumberFormat(skeleton: skeleton, locale: locale)
        self.currency = code
        self.locale = locale
        self.rounding = rounding
        self.negatives = negatives
        self.symbol = symbol
    }

    /// Formats an amount, rounded half up to the digits of the style.
    public func string(_ amount: Decimal) -> String {
        (try? string(decimalText: amount.exactText)) ?? amount.exactText
    }

    /// Formats an amount given as decimal text ("1234567.5").
    public func string(decimalText: String) throws(ICUError) -> String {
        let (text, range) = try formatter.format(decimalText: decimalText)
        guard case .explicit(let replacement) = symbol, let range else { return text }
        var units = Array(text.utf16)
        units.replaceSubrange(range, with: replacement.utf16)
        return String(decoding: units, as: UTF16.self)
    }

    /// Fraction digits of a currency in standard and cash use (TWD: 2 and 0).
    public static func fractionDigits(of currency: String, rounding: Rounding) -> Int? {
        var status: Int32 = 0
        let digits = currency.uppercased().withUTF16Unchecked { units, count in
            alm_currency_digits(units, count, rounding == .cash ? 1 : 0, &status)
        }
        return alm_icu_failure(status) == 0 ? Int(digits) : nil
    }

    /// Whether ICU knows the currency (TWD, USD; not BTC), so amounts in it can be formatted as money.
    public static func isKnown(_ currency: String) -> Bool {
        guard currency.count == 3 else { return false }
        var status: Int32 = 0
        let available = currency.uppercased().withUTF16Unchecked { units, count in alm_currency_is_available(units, count, &status) }
        return available != 0 && alm_icu_failure(status) == 0
    }

    /// The currency's symbol in a locale (`$` for TWD in zh-TW, `NT$` in en), or its name.
    public static func symbol(of currency: String, in locale: LocaleID, narrow: Bool = false) -> String {
        name(currency, locale, style: narrow ? 1 : 0)
    }

    /// The currency's name in a locale ("新台幣", "New Taiwan Dollar").
    public static func displayName(of currency: String, in locale: LocaleID) -> String {
        name(currency, locale, style: 2)
    }

    private static func name(_ currency: String, _ locale: LocaleID, style: Int32) -> String {
        let code = currency.uppercased()
        return (try? code.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: code) { buffer, capacity, status in
                alm_currency_name(units, count, locale.icuIdentifier, style, buffer, capacity, &status)
            }
        }) ?? code
    }
}

/// Reads numbers, amounts and percentages written for a locale ("1,234.5", "NT$1,234", "12%").
///
/// Not thread-safe: create one per task.
public final class NumberParser {
    public enum Style: Int32, Sendable {
        case decimal = 0, currency = 1, percent = 2
    }

    private let handle: OpaquePointer
    public let locale: LocaleID
    public let style: Style

    public init(locale: LocaleID, style: Style = .decimal) throws(ICUError) {
        var status: Int32 = 0
        guard let handle = alm_number_parser_open(locale.icuIdentifier, style.rawValue, &status),
              alm_icu_failure(status) == 0
        else { throw ICUError.status(status, .unknownLocale, subject: locale.icuIdentifier) }
        self.handle = handle
        self.locale = locale
        self.style = style
    }

    deinit { alm_number_parser_close(handle) }

    /// The result of a parse: the exact value and, for currency amounts, the ISO code ICU recognised.
    public struct Result: Hashable, Sendable {
        public let value: Decimal
        public let currency: String?
    }

    /// Parses the whole text or throws with the offset where reading stopped.
    public func parse(_ text: String) throws(ICUError) -> Result {
        var position: Int32 = 0
        var currency = [UInt16](repeating: 0, count: 4)
        let digits = try text.withUTF16 { (units, count) throws(ICUError) in
            try charOutput(capacity: 64, subject: text, kind: .unparseable) { buffer, capacity, status in
                alm_number_parse(handle, units, count, &position, buffer, capacity, &currency, &status)
            }
        }
        guard Int(position) == text.utf16.count, let value = Decimal(string: digits) else {
            throw ICUError(.unparseable, subject: text, offset: Int(position))
        }
        let code = String(decoding: currency.prefix { $0 != 0 }, as: UTF16.self)
        return Result(value: value, currency: code.isEmpty ? nil : code)
    }
}
