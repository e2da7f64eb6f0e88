import AlmanacICU
import Testing

/// Expected values: ICU's documented Hans-Hant behaviour (character by character, ARCHITECTURE.md
/// fact 4), the pinyin and stroke counts of the characters (李 lǐ 7, 王 wáng 4, 張 zhāng 11, 趙 zhào 14).
@Suite struct TransliteratorTests {
    @Test func simplifiedToTraditionalIsCharacterLevel() throws {
        let toHant = try Transliterator.simplifiedToTraditional()
        #expect(toHant.apply("简体中文") == "簡體中文")
        #expect(toHant.apply("软件") == "軟件")  // not 軟體: vocabulary needs a phrase table
        #expect(toHant.apply("记得提前订蛋糕") == "記得提前訂蛋糕")
        #expect(toHant.apply("") == "")
        let toHans = try Transliterator.traditionalToSimplified()
        #expect(toHans.apply("軟體設定") == "软体设定")
        #expect(toHans.apply("Hello 世界") == "Hello 世界")
    }

    @Test func longTextGrows() throws {
        let long = String(repeating: "简体中文，", count: 2000)
        #expect(try Transliterator.simplifiedToTraditional().apply(long) == String(repeating: "簡體中文，", count: 2000))
    }

    @Test func unknownTransformIsAnError() {
        #expect(throws: ICUError.self) { try Transliterator(id: "Klingon-Latin") }
    }
}

@Suite struct CollatorTests {
    @Test func pinyinOrder() throws {
        let collator = try Collator(locale: .simplifiedChinese, order: .pinyin)
        #expect(collator.sorted(["张", "王", "李", "赵"]) == ["李", "王", "张", "赵"])
        #expect(collator.compare("李", "王") < 0)
    }

    @Test func strokeOrderAndTaiwanDefault() throws {
        let names = ["趙", "張", "李", "王"]
        #expect(try Collator(locale: .traditionalChinese, order: .stroke).sorted(names) == ["王", "李", "張", "趙"])
        #expect(try Collator(locale: .taiwan).sorted(names) == ["王", "李", "張", "趙"])
    }

    @Test func englishIgnoresCaseFirst() throws {
        #expect(try Collator(locale: .english).sorted(["b", "A", "a", "B"]) == ["a", "A", "b", "B"])
        let collator = try Collator(locale: .english)
        #expect(collator.sortKey("apple").lexicographicallyPrecedes(collator.sortKey("Banana")))
    }
}
