import AlmanacCatalogs
import AlmanacCore
import AlmanacICU

/// A check whose findings have one right answer, a change of one text: the rule declares its fix
/// beside what it looks for (renaming or removing a rule takes its fix with it).
protocol TextFixingRule: AuditRule {
    /// The text as this check would pass it, or nil where the finding has no single right fix
    /// (then a person decides); `base` is the base's text the finding compared with. The fix
    /// looks for what the check looks for, in the same way, so that a fixed text passes it.
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String?
}

/// What the text fixes share: the order they are applied in, the converters they need (made
/// once, when a fix first needs them), and the edits more than one check makes.
final class TextFixes {
    /// The checks with a text fix, in the order they are applied to one text: the script first
    /// (the vocabulary check waits for it), the words, then the marks, then the edges.
    static let rules: [any TextFixingRule.Type] = [
        SimplifiedInHantRule.self, TraditionalInHansRule.self, MainlandVocabularyRule.self, QuoteStyleRule.self,
        HalfwidthPunctuationRule.self, EllipsisRule.self, WhitespaceMismatchRule.self, NewlineMismatchRule.self,
    ]

    /// The rule of each check with a text fix.
    static let byCheck: [AuditCheck: any TextFixingRule.Type] = Dictionary(uniqueKeysWithValues: rules.map { ($0.check, $0) })

    /// Mainland words whose Taiwan word replaces them in every meaning a UI text gives them: each
    /// was judged right in every finding of the real-app corpus (`Scripts/corpus/judged.tsv`, at
    /// least two findings, in two or more apps or meanings), and the Taiwan word is the one Apple's
    /// and Microsoft's Taiwan UIs write for it. Words right in one meaning only (保存, 查找, 添加
    /// where Taiwan writes 加入, 自定義 where a reviewer kept it, 窗口 of a time window, 預測窗口, where
    /// 視窗 would be a window on the screen) are not here: they stay findings.
    static let certainTaiwanWords: Set<String> = [
        "當前", "設置", "設備", "禁用", "用戶", "激活", "源碼", "服務器", "網絡", "發送", "優化", "字符", "創建",
    ]

    let vocabulary: MainlandVocabulary
    private var simplifier: Transliterator??

    init(vocabulary: MainlandVocabulary) {
        self.vocabulary = vocabulary
    }

    /// The text with `rule`'s finding fixed; `base` is the base's text the finding compared with.
    func fix(_ rule: any TextFixingRule.Type, text: String, base: String?, traditional: Bool) -> String? {
        let fixed = rule.fixed(text, base: base, traditional: traditional, using: self)
        return fixed == text ? nil : fixed
    }

    /// ICU's Traditional-to-Simplified transform, made when a fix first needs it.
    func simplifierNow() -> Transliterator? {
        if let simplifier { return simplifier }
        let made = try? Transliterator.traditionalToSimplified()
        simplifier = .some(made)
        return made
    }

    /// Each run of three periods as the ellipsis character (six as ……, Chinese's ellipsis), a spaced
    /// ellipsis (`. . .`) as one; a run of another length (four periods: an ellipsis and a full stop,
    /// or a typo) has no single fix.
    static func ellipsis(_ text: String) -> String? {
        let text = text.replacingOccurrences(of: EllipsisRule.spaced.description, with: "...")
        var result = ""
        var run = 0
        func flush() -> Bool {
            defer { run = 0 }
            if run == 0 { return true }
            if run < 3 { result += String(repeating: ".", count: run); return true }
            guard run % 3 == 0 else { return false }
            result += String(repeating: "…", count: run / 3)
            return true
        }
        for character in text {
            if character == "." { run += 1; continue }
            guard flush() else { return nil }
            result.append(character)
        }
        guard flush() else { return nil }
        return result
    }

    static let fullWidth: [Character: Character] = [",": "，", ".": "。", ":": "：", ";": "；", "?": "？", "!": "！"]
    /// Chinese punctuation that ends or divides a sentence.
    static let fullWidthMarks: Set<Character> = ["，", "。", "：", "；", "？", "！", "、"]

    /// Each half-width mark the check reports as its full-width form; the spaces after it go, as a
    /// full-width mark holds its own (保存失败, 请重试 → 保存失败，请重试), except at the end of the text,
    /// where a space is the whitespace check's.
    static func fullWidthPunctuation(_ text: String, base: String?) -> String? {
        guard HalfwidthPunctuationRule.mayHaveMarks(text) else { return nil }
        var characters = Array(text)
        let marks = HalfwidthPunctuationRule.marks(in: characters, base: base)
        guard !marks.isEmpty else { return nil }
        for index in marks.reversed() {
            // Two periods (裝置..): a typo for 。 or for …, which a person decides.
            if characters[index] == ".", index + 1 < characters.count, characters[index + 1] == "." { continue }
            // A mark right after a full-width one (原始檔案。.) doubles it: deleting it is the fix, and
            // which of the two stays is a person's choice.
            if index > 0, Self.fullWidthMarks.contains(characters[index - 1]) { continue }
            guard let wide = fullWidth[characters[index]] else { continue }
            characters[index] = wide
            // A run of ! and ? goes full-width together (畅游地图!! → 畅游地图！！).
            var end = index + 1
            while end < characters.count, characters[end] == "!" || characters[end] == "?" {
                characters[end] = fullWidth[characters[end]]!
                end += 1
            }
            let spaces = end
            while end < characters.count, characters[end] == " " { end += 1 }
            if end > spaces, end < characters.count { characters.removeSubrange(spaces..<end) }
        }
        return String(characters)
    }

    /// Quotation marks in the script's convention: 「」『』 in Traditional text, “”‘’ in Simplified.
    /// Only where the marks pair up (each opening one closed before the next opens): a text that
    /// uses one mark for both ends has no single right reading.
    static func quotes(_ text: String, traditional: Bool) -> String? {
        var characters = Array(text)
        if traditional {
            guard QuoteStyleRule.hasWesternQuote(in: text) else { return nil }
            // Apostrophes, and marks named as themselves (包含 “ ” 等字元), are no quotation marks.
            let apostrophes = Set(characters.indices.filter {
                ChineseConverter.isApostrophe(characters, at: $0) || QuoteStyleRule.isNamedMark(characters, at: $0)
            })
            guard nest(&characters, outer: ("“", "”"), inner: ("‘", "’"), to: (("「", "」"), ("『", "』")), skipping: apostrophes) else { return nil }
        } else {
            guard characters.contains("「") || characters.contains("」") else { return nil }
            guard nest(&characters, outer: ("「", "」"), inner: ("『", "』"), to: (("“", "”"), ("‘", "’")), skipping: []) else { return nil }
        }
        return String(characters)
    }

    /// Replaces the primary marks `outer` and the secondary `inner` by the script's primary and
    /// secondary pairs `to`, as they nest: secondary marks inside a primary pair become the
    /// script's secondary ones, and secondary marks used on their own (檔案 ‘%@’) its primary ones.
    /// False when the marks do not pair up.
    private static func nest(_ characters: inout [Character], outer: (Character, Character), inner: (Character, Character),
                             to marks: ((Character, Character), (Character, Character)), skipping: Set<Int>) -> Bool {
        var openOuter: Int?, openInner: Int?
        var changes: [(Int, Character)] = []
        for index in characters.indices where !skipping.contains(index) {
            switch characters[index] {
            case outer.0:
                guard openOuter == nil, openInner == nil else { return false }
                openOuter = index
            case outer.1:
                guard let opened = openOuter, openInner == nil else { return false }
                changes += [(opened, marks.0.0), (index, marks.0.1)]
                openOuter = nil
            case inner.0:
                guard openInner == nil else { return false }
                openInner = index
            case inner.1:
                guard let opened = openInner else { return false }
                let pair = openOuter == nil ? marks.0 : marks.1
                changes += [(opened, pair.0), (index, pair.1)]
                openInner = nil
            default:
                continue
            }
        }
        guard openOuter == nil, openInner == nil else { return false }
        for (index, mark) in changes { characters[index] = mark }
        return true
    }

    /// The characters at `positions(text)` as `convert` writes them, where `convert` keeps the
    /// text's length (a phrase of another length would need a person to check what it replaced).
    static func replacing(_ positions: ([Unicode.Scalar]) -> [Int], of text: String, with convert: (String) -> String) -> String? {
        let scalars = Array(text.unicodeScalars)
        let found = positions(scalars)
        guard !found.isEmpty else { return nil }
        let converted = Array(convert(text).unicodeScalars)
        guard converted.count == scalars.count else { return nil }
        var result = scalars
        for index in found { result[index] = converted[index] }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: result)
        return String(view)
    }

    /// The spaces and tabs at the ends the whitespace check reports, as the base has them.
    static func edgeSpaces(_ text: String, base: String) -> String? {
        let edges = WhitespaceMismatchRule.mismatch(text, base: base)
        guard edges.leading || edges.trailing else { return nil }
        func isSpace(_ character: Character) -> Bool { character == " " || character == "\t" }
        var result = Substring(text)
        if edges.leading { result = base.prefix(while: isSpace) + result.drop(while: isSpace) }
        if edges.trailing {
            let kept = result.reversed().drop(while: isSpace).count
            result = result.prefix(kept) + String(base.reversed().prefix(while: isSpace).reversed())
        }
        return String(result)
    }

    /// The line breaks at the start and the end as the base has them, where that is all the newline
    /// check reports (a lost paragraph needs a person to say where it breaks).
    static func edgeLineBreaks(_ text: String, base: String) -> String? {
        guard let baseLines = LineBreaks(base), let lines = LineBreaks(text, orNilWithout: false),
              lines.paragraphs >= baseLines.paragraphs, baseLines.changesStructure(lines) else { return nil }
        func isBreak(_ character: Character) -> Bool { character == "\n" }
        let leading = base.prefix(while: isBreak), trailing = String(base.reversed().prefix(while: isBreak))
        var body = Substring(text).drop(while: isBreak)
        body = body.prefix(body.reversed().drop(while: isBreak).count)
        let result = leading + body + trailing
        guard let fixed = LineBreaks(String(result), orNilWithout: false), !baseLines.changesStructure(fixed) else { return nil }
        return String(result)
    }
}
