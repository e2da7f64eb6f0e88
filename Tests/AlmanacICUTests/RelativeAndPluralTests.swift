import AlmanacICU
import Foundation
import Testing

/// Expected values: CLDR's relative day fields (en "tomorrow"; zh-Hant 明天, 後天; zh-Hans 后天),
/// Babel 2.18 `format_timedelta(..., add_direction=True)` for numeric forms ("3 天後", "3天后",
/// "in 3 days"), and CLDR's plural rules (Babel's `plural_form.tags` plus `other`).
@Suite struct RelativeDayTests {
    @Test(arguments: [
        ("en", 1, false, "tomorrow"),
        ("en", -1, false, "yesterday"),
        ("en", 0, false, "today"),
        ("en", 3, false, "in 3 days"),
        ("en", -3, false, "3 days ago"),
        ("en", 1, true, "in 1 day"),
        ("zh-Hant", 1, false, "明天"),
        ("zh-Hant", 2, false, "後天"),
        ("zh-Hant", -1, false, "昨天"),
        ("zh-Hant", 3, false, "3 天後"),
        ("zh-Hant", -3, false, "3 天前"),
        ("zh-TW", 12, false, "12 天後"),
        ("zh-Hans", 2, false, "后天"),
        ("zh-Hans", 3, false, "3天后"),
        ("zh-Hans", -3, false, "3天前"),
    ])
    func days(locale: String, days: Int, numeric: Bool, expected: String) throws {
        let format = try RelativeDayFormat(locale: LocaleID(locale))
        #expect(format.string(days: days, numeric: numeric) == expected)
    }

    @Test func betweenDates() throws {
        let format = try RelativeDayFormat(locale: .english)
        let today = try CivilDate(year: 2025, month: 12, day: 30)
        #expect(format.string(from: today, to: try CivilDate(year: 2026, month: 1, day: 2)) == "in 3 days")
    }
}

@Suite struct PluralRulesTests {
    @Test(arguments: [
        ("en", [PluralCategory.one, .other]),
        ("zh", [.other]),
        ("zh-Hant", [.other]),
        ("ja", [.other]),
        ("fr", [.one, .many, .other]),
        ("ru", [.one, .few, .many, .other]),
        ("ar", [.zero, .one, .two, .few, .many, .other]),
    ])
    func categoriesEachLocaleNeeds(locale: String, expected: [PluralCategory]) throws {
        #expect(try PluralRules(locale: LocaleID(locale)).categories == expected)
    }

    @Test func selection() throws {
        let en = try PluralRules(locale: .english)
        #expect(en.category(for: 1) == .one)
        #expect(en.category(for: 0) == .other)
        #expect(en.category(for: 2) == .other)
        // Visible fraction digits change the form: "1.0 days".
        #expect(try en.category(decimalText: "1.0") == .other)
        #expect(try en.category(decimalText: "1") == .one)
        let zh = try PluralRules(locale: .traditionalChinese)
        #expect(zh.category(for: 1) == .other)
        let ru = try PluralRules(locale: LocaleID("ru"))
        #expect(ru.category(for: 21) == .one)
        #expect(ru.category(for: 22) == .few)
        #expect(ru.category(for: 25) == .many)
        let fr = try PluralRules(locale: LocaleID("fr"))
        #expect(fr.category(for: 0) == .one)
        #expect(fr.category(for: Decimal(string: "1.5")!) == .one)
        #expect(fr.category(for: 1_000_000) == .many)
        let ordinal = try PluralRules(locale: .english, kind: .ordinal)
        #expect(ordinal.category(for: 2) == .two)
        #expect(ordinal.category(for: 3) == .few)
        #expect(ordinal.category(for: 11) == .other)
    }
}
