import CICUShim
import Testing
@testable import AlmanacICU

/// The shim is given UTF-16 as a pointer and a count; nothing may read up to a terminator.
/// Swift arrays have none, and a read past an array's count that stays inside its capacity is
/// invisible to AddressSanitizer, so these tests put non-NUL units right after the count.
@Suite struct ShimBufferTests {
    /// "TWD" followed by more letters and no terminator, as a Swift array's spare capacity can hold.
    private func unterminated(_ code: String, padding: String = "XYZXYZXYZ") -> [UInt16] {
        Array((code + padding).utf16)
    }

    @Test func currencyCodesAreReadByLength() {
        for code in ["TWD", "USD", "JPY", "EUR"] {
            let units = unterminated(code)
            var status: Int32 = 0
            #expect(alm_currency_is_available(units, 3, &status) == 1, "\(code)")
            #expect(alm_icu_failure(status) == 0)
            status = 0
            let digits = alm_currency_digits(units, 3, 1, &status)
            #expect(alm_icu_failure(status) == 0)
            #expect(digits == (code == "TWD" || code == "JPY" ? 0 : 2), "\(code) cash digits")
            status = 0
            var name = [UInt16](repeating: 0, count: 32)
            let length = alm_currency_name(units, 3, "zh_TW", 2, &name, 32, &status)
            #expect(alm_icu_failure(status) == 0)
            #expect(length > 0)
        }
        var status: Int32 = 0
        #expect(alm_currency_is_available(unterminated("BTC"), 3, &status) == 0)
    }

    @Test func codesThatAreNotThreeUnitsAreRefused() {
        var status: Int32 = 0
        #expect(alm_currency_is_available(unterminated("TW"), 2, &status) == 0)
        #expect(alm_icu_failure(status) != 0)
        status = 0
        _ = alm_currency_digits(unterminated("TWDD"), 4, 0, &status)
        #expect(alm_icu_failure(status) != 0)
    }

    /// The public API over the same calls, with codes cut from longer strings and fresh heap
    /// blocks in between (the over-read made `isKnown("TWD")` depend on what memory followed it).
    @Test func knownCurrenciesStayKnown() {
        var noise: [[UInt16]] = []
        for round in 0..<500 {
            noise.append([UInt16](repeating: UInt16(0x41 + round % 26), count: 3 + round % 5))
            let code = String("TWDUSD".prefix(3))
            #expect(CurrencyFormat.isKnown(code), "round \(round)")
            #expect(CurrencyFormat.fractionDigits(of: code, rounding: .cash) == 0, "round \(round)")
            #expect(!CurrencyFormat.isKnown("BTC"))
            if noise.count > 16 { noise.removeFirst() }
        }
    }

    @Test func utf16BuffersEndWithATerminatorAfterTheCount() throws {
        for text in ["", "TWD", "臺北", String(repeating: "a", count: 257)] {
            text.withUTF16Unchecked { units, count in
                #expect(Int(count) == text.utf16.count)
                #expect(units[Int(count)] == 0)
            }
        }
    }
}
