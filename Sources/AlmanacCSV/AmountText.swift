import AlmanacCore
import AlmanacICU
import Foundation

/// Amounts as people in a region read them (`amounts=formatted`): in their currency's money
/// format (TWD in Taipei: $1,234,568, cash digits unless `rounding=standard`, half up); a
/// currency ICU does not know (BTC) keeps every digit with its code; no currency, the number
/// grouped. Says whether the text still reads back as the amount (a rounded one must be named).
struct AmountText {
    let locale: LocaleID
    let rounding: CurrencyFormat.Rounding
    private let reader: CellReader
    private var formats: [String: CurrencyFormat?] = [:]
    private var plain: NumberFormat??

    init(locale: LocaleID, rounding: CurrencyFormat.Rounding) {
        self.locale = locale
        self.rounding = rounding
        reader = CellReader(locale: locale)
    }

    /// The amount written for people, and whether it reads back as exactly `value`.
    mutating func text(_ value: Decimal, currency: String?) -> (text: String, exact: Bool) {
        let text: String
        if let currency, let format = format(for: currency) {
            text = format.string(value)
        } else {
            if plain == nil { plain = .some(try? NumberFormat.decimal(locale: locale, fractionDigits: 0...8)) }
            text = (currency.map { $0 + " " } ?? "") + (plain??.string(value) ?? value.description)
        }
        if case .success(let read) = reader.amount(text), read.value == value { return (text, true) }
        return (text, false)
    }

    /// The money format of a currency ICU knows, made once.
    private mutating func format(for currency: String) -> CurrencyFormat? {
        if let made = formats[currency] { return made }
        let made = CurrencyFormat.isKnown(currency) ? try? CurrencyFormat(currency: currency, locale: locale, rounding: rounding) : nil
        formats[currency] = .some(made)
        return made
    }
}
