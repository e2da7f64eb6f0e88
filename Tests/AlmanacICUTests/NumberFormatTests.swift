import AlmanacICU
import Foundation
import Testing

/// Expected values: CLDR via Babel 2.18 (`format_currency`, `format_decimal`), and CLDR's
/// supplemental currency data (TWD: 2 digits, 0 cash digits).
@Suite struct NumberFormatTests {
    let amount = Decimal(string: "1234567.5")!

    @Test func twdCashStyleIsTheDefault() throws {
        // ARCHITECTURE.md fact 5: zh-TW writes $, en-US and zh-CN write NT$; cash rounds to 0 digits.
        #expect(try CurrencyFormat(currency: "TWD", locale: LocaleID("zh-TW")).string(amount) == "$1,234,568")
        #expect(try CurrencyFormat(currency: "TWD", locale: LocaleID("en-US")).string(amount) == "NT$1,234,568")
        #expect(try CurrencyFormat(currency: "TWD", locale: LocaleID("zh-CN")).string(amount) == "NT$1,234,568")
    }

    @Test func twdStandardStyle() throws {
        // Babel: format_currency(1234567.5, 'TWD', locale=...) = "$1,234,567.50" / "NT$1,234,567.50".
        #expect(try CurrencyFormat(currency: "TWD", locale: .taiwan, rounding: .standard).string(amount) == "$1,234,567.50")
        #expect(try CurrencyFormat(currency: "TWD", locale: .americanEnglish, rounding: .standard).string(amount)
            == "NT$1,234,567.50")
    }

    @Test func explicitSymbol() throws {
        let format = try CurrencyFormat(currency: "TWD", locale: .taiwan, symbol: .explicit("NT$"))
        #expect(format.string(amount) == "NT$1,234,568")
        let standard = try CurrencyFormat(currency: "TWD", locale: .taiwan, rounding: .standard, symbol: .explicit("NT$"))
        #expect(standard.string(Decimal(string: "-12.5")!) == "-NT$12.50")
        let iso = try CurrencyFormat(currency: "TWD", locale: .taiwan, symbol: .isoCode)
        #expect(iso.string(amount).contains("TWD"))
    }

    @Test func accountingNegatives() throws {
        // Babel: format_currency(-1234.5, 'TWD', format_type='accounting') = "($1,234.50)" in zh_TW.
        let zh = try CurrencyFormat(currency: "TWD", locale: .taiwan, rounding: .standard, negatives: .accounting)
        #expect(zh.string(Decimal(string: "-1234.5")!) == "($1,234.50)")
        let en = try CurrencyFormat(currency: "TWD", locale: .americanEnglish, rounding: .standard, negatives: .accounting)
        #expect(en.string(Decimal(string: "-1234.5")!) == "(NT$1,234.50)")
        let cash = try CurrencyFormat(currency: "TWD", locale: .taiwan, negatives: .accounting)
        // Half up, as amounts are rounded for people (四捨五入); ICU's default is half to even.
        #expect(cash.string(Decimal(string: "-1234.5")!) == "($1,235)")
        #expect(cash.string(Decimal(string: "1234.5")!) == "$1,235")
        #expect(try CurrencyFormat(currency: "TWD", locale: .americanEnglish).string(Decimal(string: "2.5")!) == "NT$3")
        #expect(try CurrencyFormat(currency: "TWD", locale: .americanEnglish).string(Decimal(string: "3.5")!) == "NT$4")
    }

    @Test func moneyIsExact() throws {
        // 0.1 + 0.2 is not 0.30000000000000004 when it stays decimal all the way.
        let sum = Decimal(string: "0.1")! + Decimal(string: "0.2")!
        let format = try CurrencyFormat(currency: "USD", locale: .americanEnglish, rounding: .standard)
        #expect(format.string(sum) == "$0.30")
        let big = try CurrencyFormat(currency: "TWD", locale: .taiwan, rounding: .standard)
        #expect(try big.string(decimalText: "12345678901234567.89") == "$12,345,678,901,234,567.89")
    }

    @Test func currencyData() {
        #expect(CurrencyFormat.fractionDigits(of: "TWD", rounding: .standard) == 2)
        #expect(CurrencyFormat.fractionDigits(of: "TWD", rounding: .cash) == 0)
        #expect(CurrencyFormat.fractionDigits(of: "JPY", rounding: .standard) == 0)
        #expect(CurrencyFormat.symbol(of: "TWD", in: .taiwan) == "$")
        #expect(CurrencyFormat.symbol(of: "TWD", in: .english) == "NT$")
        #expect(CurrencyFormat.displayName(of: "TWD", in: .taiwan) == "新台幣")
        #expect(CurrencyFormat.displayName(of: "TWD", in: .english) == "New Taiwan Dollar")
    }

    @Test func rejectsBadCurrencyCodes() {
        #expect(throws: ICUError.self) { try CurrencyFormat(currency: "NT$", locale: .taiwan) }
    }

    @Test func decimalsAndPercentages() throws {
        // Babel: format_decimal(1234567.891, locale=...) = "1,234,567.891"; format_percent(0.256) = "26%".
        #expect(try NumberFormat.decimal(locale: .taiwan).string(Decimal(string: "1234567.891")!) == "1,234,567.891")
        #expect(try NumberFormat.percent(locale: .taiwan).string(Decimal(string: "0.256")!) == "26%")
        #expect(try NumberFormat.percent(locale: .americanEnglish, fractionDigits: 1).string(Decimal(string: "0.256")!)
            == "25.6%")
        #expect(try NumberFormat.decimal(locale: LocaleID("de-DE")).string(Decimal(string: "1234.5")!) == "1.234,5")
        #expect(try NumberFormat.decimal(locale: .english, fractionDigits: 2...2).string(3) == "3.00")
        #expect(throws: ICUError.self) { try NumberFormat(skeleton: "not-a-skeleton", locale: .english) }
    }

    @Test func parsing() throws {
        let decimal = try NumberParser(locale: .taiwan)
        #expect(try decimal.parse("1,234,567.5").value == Decimal(string: "1234567.5")!)
        #expect(throws: ICUError.self) { try decimal.parse("12abc") }
        let german = try NumberParser(locale: LocaleID("de-DE"))
        #expect(try german.parse("1.234,5").value == Decimal(string: "1234.5")!)
        let currency = try NumberParser(locale: .americanEnglish, style: .currency)
        let parsed = try currency.parse("$1,234.50")
        #expect(parsed.value == Decimal(string: "1234.5")!)
        #expect(parsed.currency == "USD")
        let percent = try NumberParser(locale: .english, style: .percent)
        #expect(try percent.parse("25%").value == Decimal(string: "0.25")!)
    }
}
