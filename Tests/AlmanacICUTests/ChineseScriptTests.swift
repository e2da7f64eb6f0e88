import AlmanacICU
import Testing

/// Which Chinese script a locale writes is decided once (`CatalogLocales.chineseScript(of:)`, below
/// ICU, so the accessor tool can use it with nothing installed); these hold that rule to ICU's likely
/// subtags, the source it follows, for every region.
@Suite struct ChineseScriptTests {
    @Test func regionsAgreeWithICUsLikelySubtags() throws {
        let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let regions = letters.flatMap { first in letters.map { first + $0 } } + ["419", "001", "150"]
        var compared = 0
        for region in regions {
            guard let locale = try? LocaleID("zh-" + region), locale.maximized.region == region else { continue }
            let icuSays = locale.maximized.script == "Hant"
            #expect((CatalogLocales.chineseScript(of: "zh-" + region) == "zh-Hant") == icuSays, "zh-\(region)")
            #expect((CatalogLocales.chineseScript(of: "zh_" + region.lowercased()) == "zh-Hant") == icuSays, "zh_\(region)")
            #expect(locale.usesTraditionalChinese == icuSays, "zh-\(region)")
            compared += 1
        }
        #expect(compared > 200)
    }

    @Test func spellingsOfTheSameLocale() throws {
        for name in ["zh-Hant", "zh_TW", "zh-tw", "zh-HK", "zh-MO", "zh_MO", "zh-Hant-CN", "zh-Hant-TW", "zh-US"] {
            #expect(CatalogLocales.chineseScript(of: name) == "zh-Hant", "\(name)")
            #expect(ChineseScript(locale: try LocaleID(name)) == .traditional, "\(name)")
        }
        for name in ["zh", "zh-Hans", "zh_CN", "zh-SG", "zh-MY", "zh-Hans-TW", "zh-Hans-HK"] {
            #expect(CatalogLocales.chineseScript(of: name) == "zh-Hans", "\(name)")
            #expect(ChineseScript(locale: try LocaleID(name)) == .simplified, "\(name)")
        }
        #expect(CatalogLocales.chineseScript(of: "zh-Latn") == nil)
        #expect(CatalogLocales.chineseScript(of: "en-TW") == nil)
        #expect(ChineseScript(locale: .english) == .traditional)
    }
}
