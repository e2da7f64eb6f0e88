/// Which Chinese script a Han character belongs to, from OpenCC's character tables: a character is
/// Simplified only when OpenCC does not list it among its own Traditional forms (发 is 發 or 髮), and
/// Traditional only when it is not among its own Simplified forms (發 is 发). Characters both scripts
/// write (里 in 公里, 著 in 显著, 干 in 若干, 后 in 皇后) are neither; where such a character stands in a
/// word that OpenCC writes with another Traditional form (这里 → 這裡, 以后 → 以後, 饼干 → 餅乾), a
/// Traditional text that keeps it holds a Simplified leftover, found by `simplifiedLeftovers(in:)`.
public enum ChineseCharacters {
    private static let simplifiedOnly = Set(OpenCCTables.simplifiedOnly.unicodeScalars.map(\.value))
    private static let traditionalOnly = Set(OpenCCTables.traditionalOnly.unicodeScalars.map(\.value))
    /// Characters both scripts write whose Traditional form depends on the word, where OpenCC's
    /// phrases and Taiwan's standard agree on that form: 里 (這裡, 公里), 后 (以後, 皇后), 干 (乾淨, 若干),
    /// 面 (麵條), 只 (一隻), 系 (關係, 聯繫), 表 (手錶: a timepiece only, `isTimepiece`), 松 (放鬆), 斗 (戰鬥), 征 (特徵), 舍 (捨棄), 余, 于,
    /// 云 (the surnames, and 餘, 於, 雲), 划 (計劃), 板 (老闆). Not those whose word forms Taiwan writes
    /// either way (了解 and 瞭解, 宣布 and 宣佈, 折疊 and 摺疊, 制冷 and 製冷).
    private static let ambiguous: Set<UInt32> = Set("里后干面只系表松斗征舍余于云划板".unicodeScalars.map(\.value))
    private static let toSimplified: [UInt32: Unicode.Scalar] = {
        var result: [UInt32: Unicode.Scalar] = [:]
        PhraseTable.forEachPair(in: OpenCCTables.traditionalCharacters) { key, value in
            guard key.unicodeScalars.count == 1, value.unicodeScalars.count == 1,
                  let from = key.unicodeScalars.first, let to = value.unicodeScalars.first else { return }
            result[from.value] = to
        }
        return result
    }()

    /// Whether only Simplified Chinese writes this character.
    public static func isSimplifiedOnly(_ scalar: Unicode.Scalar) -> Bool { simplifiedOnly.contains(scalar.value) }

    /// Whether only Traditional Chinese writes this character.
    public static func isTraditionalOnly(_ scalar: Unicode.Scalar) -> Bool { traditionalOnly.contains(scalar.value) }

    /// The positions (in Unicode scalars) of `scalars`, a Traditional text, that hold a character
    /// both scripts write inside a word OpenCC's phrases write with another form: 里 in 這里, 后 in
    /// 以后, 干 in 餅干.
    public static func simplifiedLeftovers(in scalars: [Unicode.Scalar]) -> [Int] {
        guard scalars.contains(where: { ambiguous.contains($0.value) }) else { return [] }
        let simplified = scalars.map { toSimplified[$0.value] ?? $0 }
        guard let words = PhraseTable.simplifiedToTraditional.segment(simplified) else { return [] }
        var found: [Int] = []
        for word in words {
            guard let replacement = word.replacement else { continue }
            let written = Array(replacement.unicodeScalars)
            guard written.count == word.end - word.start else { continue }
            for offset in 0..<written.count {
                let index = word.start + offset
                let original = scalars[index]
                guard ambiguous.contains(original.value), written[offset] != original else { continue }
                if original == "表" && !Self.isTimepiece(written, at: offset) { continue }
                if ChineseConverter.taiwanVariants[Character(written[offset])] != Character(original) { found.append(index) }
            }
        }
        return found
    }

    /// Whether 錶 at `offset` of a word OpenCC writes names a timepiece (手錶, 鐘錶, 腕錶, 懷錶, 秒錶,
    /// 錶帶, 錶盤), where Taiwan writes 錶 only. For a meter or a gauge the Ministry of Education's
    /// dictionary writes both (電表 and 電錶, 儀表, 轉速表, 碼表), so 表 there is no Simplified form.
    static func isTimepiece(_ word: [Unicode.Scalar], at offset: Int) -> Bool {
        let before: Set<Unicode.Scalar> = ["手", "鐘", "鍾", "腕", "懷", "秒"], after: Set<Unicode.Scalar> = ["帶", "盤", "殼", "冠", "鏈", "錶"]
        return offset > 0 && before.contains(word[offset - 1]) || offset + 1 < word.count && after.contains(word[offset + 1])
    }
}
