import AlmanacCatalogs
import AlmanacICU

/// Which Han characters belong to one Chinese script only, decided by ICU's transforms (with
/// Taiwan's variants), one character at a time and remembered: a catalog of 50,000 strings uses a
/// few thousand distinct characters.
final class ScriptPurity {
    let toTraditional: ChineseConverter
    let toSimplified: ChineseConverter
    // By the character's first scalar (Han characters are one scalar).
    private var simplifiedOnly: [UInt32: Bool] = [:]
    private var traditionalOnly: [UInt32: Bool] = [:]

    /// Characters Taiwan writes although ICU's transform prefers another form: 台 (臺), and 占
    /// and 污, which the Ministry of Education's standard forms list (佔 and 汙 are the variants
    /// ICU writes).
    static let taiwanStandard: Set<Character> = ["台", "占", "污"]

    /// Characters that are Simplified in most words but Traditional in these (干擾 but 乾淨 and
    /// 幹部; 征服 but 特徵; 宿舍 but 捨棄; 皇后 but 以後; 北斗 but 戰鬥): ICU's transform reads one
    /// character at a time and cannot tell, so the words are looked for around the character.
    static let traditionalWords: [Unicode.Scalar: [[Unicode.Scalar]]] = {
        let words = ["干擾", "干涉", "干預", "干犯", "若干", "相干", "干支", "干戈", "征服", "征戰", "出征", "遠征", "長征", "征途", "征討",
                     "宿舍", "校舍", "舍監", "寒舍", "旅舍", "房舍", "皇后", "王后", "太后", "后妃", "北斗", "南斗", "漏斗", "熨斗", "斗笠",
                     "斗篷", "星斗"]
        var result: [Unicode.Scalar: [[Unicode.Scalar]]] = [:]
        for word in words {
            let scalars = Array(word.unicodeScalars)
            for scalar in Set(scalars) where "干征舍后斗".unicodeScalars.contains(scalar) { result[scalar, default: []].append(scalars) }
        }
        return result
    }()

    init() throws {
        toTraditional = try ChineseConverter(.toTaiwan)
        toSimplified = try ChineseConverter(.toSimplified)
    }

    static func isHan(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { isHan($0.value) } ?? false
    }

    static func isHan(_ value: UInt32) -> Bool {
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true
        default: false
        }
    }

    /// Characters of `text` that only Simplified Chinese uses: their own simplified form, written
    /// differently in Traditional, and the simplified form of that Traditional character (峯 is
    /// written 峰 in Taiwan, but as a variant, not as 峰's simplification).
    func simplifiedCharacters(in text: String) -> String {
        let found = characters(in: text, remembered: &simplifiedOnly) { alone in
            guard !Self.taiwanStandard.contains(Character(alone)), toSimplified.convert(alone) == alone else { return false }
            let traditional = toTraditional.convert(alone)
            return traditional != alone && toSimplified.convert(traditional) == alone
        }
        guard found.unicodeScalars.contains(where: { Self.traditionalWords[$0] != nil }) else { return found }
        // Some were found that are Traditional in some words: keep those not inside such a word.
        let scalars = Array(text.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() where found.unicodeScalars.contains(scalar) {
            if let words = Self.traditionalWords[scalar], words.contains(where: { Self.word($0, at: index, in: scalars, holding: scalar) }) { continue }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Whether `word` is written in `scalars` over position `index`, which holds `scalar`.
    static func word(_ word: [Unicode.Scalar], at index: Int, in scalars: [Unicode.Scalar], holding scalar: Unicode.Scalar) -> Bool {
        for (offset, character) in word.enumerated() where character == scalar {
            let start = index - offset
            if start >= 0, start + word.count <= scalars.count, Array(scalars[start..<(start + word.count)]) == word { return true }
        }
        return false
    }

    /// Characters of `text` that only Traditional Chinese uses.
    func traditionalCharacters(in text: String) -> String {
        characters(in: text, remembered: &traditionalOnly) { alone in toSimplified.convert(alone) != alone }
    }

    /// The Han characters of `text` that pass `test`, each decided once.
    private func characters(in text: String, remembered: inout [UInt32: Bool], where test: (String) -> Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars where Self.isHan(scalar.value) {
            let known = remembered[scalar.value] ?? {
                let answer = test(String(scalar))
                remembered[scalar.value] = answer
                return answer
            }()
            if known { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
