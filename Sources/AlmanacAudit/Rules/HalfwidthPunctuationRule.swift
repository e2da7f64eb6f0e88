import AlmanacCore

/// A half-width `, . : ; ? !` right after Chinese text, which Chinese writes full-width. Inside
/// a number or a name (`iOS 18.1`), quoted or bracketed to name it (缺少「;」, 使用逗号（,）分隔), right
/// after an opening quote or bracket (a file extension, 請使用“.%2$@”), a period before a placeholder
/// (`.%@`), in an emoticon (:)), in an ellipsis (`...`, spaced `. . .`), or a period or colon the base
/// uses only as notation between two letters or digits (`mm:ss.S` written 分分:秒秒.秒, `A.B.C`), or
/// the periods of a text that is a dotted notation of words itself (设置.类别.规划器: a key such as
/// `settings.category.planner` translated word for word), or a mark the base writes as a word of its
/// own (`click the ? above the keyboard`: the button's label) inside the translation, it is left alone.
struct HalfwidthPunctuationRule: TextRule {
    static let description = AuditRuleDescription(
        id: "halfwidth-punctuation", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("failed", "en", "Could not save, try again"), ("failed", "zh-Hans", "保存失败,请重试"))],
        nonTriggering: [.values(("failed", "en", "Could not save, try again"), ("failed", "zh-Hans", "保存失败，请重试")),
                        .values(("update", "en", "Requires iOS 18.1"), ("update", "zh-Hant", "需要iOS 18.1")),
                        .values(("syntax", "en", "A “;” is missing"), ("syntax", "zh-Hant", "缺少「;」")),
                        .values(("tip", "en", "Buy me a milkshake :)"), ("tip", "zh-Hant", "請我喝奶昔:)")),
                        .values(("extension", "en", "Use a “.%2$@” file"), ("extension", "zh-Hant", "請使用“.%2$@”檔案"), alsoFinds: ["quote-style"]),
                        .values(("suffix", "en", "Files ending in .%@"), ("suffix", "zh-Hans", "以.%@结尾的文件")),
                        .values(("format", "en", "mm:ss.S"), ("format", "zh-Hans", "分分:秒秒.秒")),
                        .values(("settings.category.planner", "en", "Planner"), ("settings.category.planner", "zh-Hans", "设置.类别.规划器")),
                        .values(("help", "en", "Click the ? above the keyboard to learn more"), ("help", "zh-Hans", "点击键盘上方的?了解")),
                        .values(("logs", "en", "Loading Logs…"), ("logs", "zh-Hans", "加载日志. . ."), alsoFinds: ["ellipsis"]),
                        .values(("models", "en", "Model names, separated by commas (,)"), ("models", "zh-Hans", "模型名字，多个模型使用逗号（,）分隔")),
                        .values(("count", "en", "%@ character;%@ characters"), ("count", "zh-Hans", "%@ 个字符;%@ 个字符")),
                        .values(("MDItemKeywords", "en", "compress, extract"), ("MDItemKeywords", "zh-Hans", "压缩, 提取"))])

    func check(_ text: TextContext) {
        guard Self.mayHaveMarks(text.text), !text.isJapanese else { return }
        // Spotlight's keywords (`MDItemKeywords` in InfoPlist.strings) are a list the system cuts at
        // its commas.
        if text.value.key.entry.key.lowercased().hasSuffix("keywords") { return }
        if let mark = Self.halfWidthPunctuation(in: text.text, base: text.reference) {
            text.report(Self.description, [mark], value: text.text, base: text.reference)
        }
    }

    /// The first such mark in `text`.
    static func halfWidthPunctuation(in text: String, base: String? = nil) -> String? {
        guard mayHaveMarks(text) else { return nil }
        let characters = Array(text)
        return marks(in: characters, base: base).first.map { String(characters[$0]) }
    }

    /// The marks the base uses as a separator the app splits on, not as punctuation: `;` or `,`
    /// with no space after it (`%@ character;%@ characters`, which the app cuts at the `;`).
    static func separators(in base: String?) -> Set<Character> {
        guard let base, base.utf8.contains(where: { $0 == ASCII.semicolon || $0 == ASCII.comma }) else { return [] }
        let characters = Array(base)
        var result: Set<Character> = []
        for (index, character) in characters.enumerated() where character == ";" || character == "," {
            guard index + 1 < characters.count else { continue }
            let next = characters[index + 1]
            if !next.isWhitespace && !next.isNumber { result.insert(character) }
        }
        return result
    }

    /// Most values have none of , . : ; ? ! at all.
    static func mayHaveMarks(_ text: String) -> Bool {
        text.utf8.contains(where: { $0 == ASCII.comma || $0 == ASCII.period || $0 == ASCII.colon || $0 == ASCII.semicolon || $0 == ASCII.question || $0 == ASCII.exclamation })
    }

    /// The marks (`.` and `:`) the base writes only as notation, between two letters or digits
    /// (`ss.S`, `A.B.C`, `mm:ss`), at least as often as `characters` has them: the translation's are
    /// that notation too (秒秒.秒), not the end of a sentence.
    static func notationMarks(_ characters: [Character], base: String?) -> Set<Character> {
        if isDottedNotation(characters) { return ["."] }
        guard let base, base.utf8.contains(where: { $0 == ASCII.period || $0 == ASCII.colon }) else { return [] }
        let baseCharacters = Array(base)
        var result: Set<Character> = []
        for mark in [".", ":"] as [Character] {
            let places = baseCharacters.indices.filter { baseCharacters[$0] == mark }
            guard !places.isEmpty, places.count >= characters.count(where: { $0 == mark }) else { continue }
            func isWordCharacter(_ index: Int) -> Bool {
                baseCharacters.indices.contains(index) && (baseCharacters[index].isLetter || baseCharacters[index].isNumber)
            }
            if places.allSatisfy({ isWordCharacter($0 - 1) && isWordCharacter($0 + 1) }) { result.insert(mark) }
        }
        return result
    }

    /// The marks the base writes as a word of their own, with a space or the text's edge on each
    /// side (`the ? above the keyboard`): a key's or a button's label, not punctuation.
    static func namedMarks(in base: String?) -> Set<Character> {
        guard let base, mayHaveMarks(base) else { return [] }
        let characters = Array(base)
        var result: Set<Character> = []
        for (index, character) in characters.enumerated() where ",.:;?!".contains(character) {
            let before = index == 0 || characters[index - 1].isWhitespace
            let after = index + 1 == characters.count || characters[index + 1].isWhitespace
            // Alone as the whole text it is a label too, but a translation has nothing to name then.
            if before && after && characters.count > 1 { result.insert(character) }
        }
        return result
    }

    /// A text that is words joined by periods and nothing else (设置.类别.规划器): two periods or
    /// more, each between two short words (six characters at most), no space and no other mark.
    /// Sentences are longer than that, and end with one period.
    static func isDottedNotation(_ characters: [Character]) -> Bool {
        guard characters.count(where: { $0 == "." }) >= 2 else { return false }
        let words = characters.split(separator: ".", omittingEmptySubsequences: false)
        return words.allSatisfy { word in
            (1...6).contains(word.count) && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
    }

    /// Where each half-width mark used as Chinese punctuation is.
    static func marks(in characters: [Character], base: String? = nil) -> [Int] {
        var result: [Int] = []
        let separators = separators(in: base).union(notationMarks(characters, base: base))
        let named = namedMarks(in: base)
        for (index, character) in characters.enumerated() where ",.:;?!".contains(character) && !separators.contains(character) {
            guard index > 0, TextScan.isCJK(characters[index - 1]) else { continue }
            // Right after an opening quote or bracket, a mark is quoted, not punctuating (“.%2$@”).
            if "「“‘『（(【[".contains(characters[index - 1]) { continue }
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if let next, next.isNumber || next.isLetter && next.isASCII { continue }
            // A mark the base names as a word of its own (the ? button), inside the text, is that name.
            if named.contains(character), let next, !next.isWhitespace { continue }
            // A period before a placeholder is a file extension or a decimal point (.%@, %d.%d).
            if character == ".", next == "%" { continue }
            if character == "." && index + 2 < characters.count && characters[index + 1] == "." { continue }  // "..." has its own check
            // A spaced ellipsis (加载日志. . .) is one mark, the ellipsis check's, not three sentence ends.
            if character == "." && index + 2 < characters.count && characters[index + 1] == " " && characters[index + 2] == "." { continue }
            // An emoticon (:) ;-)) is no punctuation.
            if ":;".contains(character), let next, ")(-".contains(next) { continue }
            // A mark quoted or bracketed to name it (缺少「;」, 逗号（,）) is not punctuation.
            if "「“‘『（(【[".contains(characters[index - 1]), let next, "」”’』）)】]".contains(next) { continue }
            result.append(index)
        }
        return result
    }
}

extension HalfwidthPunctuationRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        TextFixes.fullWidthPunctuation(text, base: base)
    }
}
