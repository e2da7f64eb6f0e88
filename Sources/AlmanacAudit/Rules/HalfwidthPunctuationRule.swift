import AlmanacCore

/// A half-width `, . : ; ? !` right after Chinese text, which Chinese writes full-width. Inside
/// a number or a name (`iOS 18.1`), quoted or bracketed to name it (缺少「;」, 使用逗号（,）分隔), or
/// in an emoticon (:)), it is left alone.
struct HalfwidthPunctuationRule: TextRule {
    static let description = AuditRuleDescription(
        id: "halfwidth-punctuation", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("failed", "en", "Could not save, try again"), ("failed", "zh-Hans", "保存失败,请重试"))],
        nonTriggering: [.values(("failed", "en", "Could not save, try again"), ("failed", "zh-Hans", "保存失败，请重试")),
                        .values(("update", "en", "Requires iOS 18.1"), ("update", "zh-Hant", "需要iOS 18.1")),
                        .values(("syntax", "en", "A “;” is missing"), ("syntax", "zh-Hant", "缺少「;」")),
                        .values(("tip", "en", "Buy me a milkshake :)"), ("tip", "zh-Hant", "請我喝奶昔:)")),
                        .values(("models", "en", "Model names, separated by commas (,)"), ("models", "zh-Hans", "模型名字，多个模型使用逗号（,）分隔"))])

    func check(_ text: TextContext) {
        if let mark = Self.halfWidthPunctuation(in: text.text) { text.report(Self.description, [mark], value: text.text) }
    }

    /// The first such mark in `text`.
    static func halfWidthPunctuation(in text: String) -> String? {
        guard mayHaveMarks(text) else { return nil }
        let characters = Array(text)
        return marks(in: characters).first.map { String(characters[$0]) }
    }

    /// Most values have none of , . : ; ? ! at all.
    static func mayHaveMarks(_ text: String) -> Bool {
        text.utf8.contains(where: { $0 == ASCII.comma || $0 == ASCII.period || $0 == ASCII.colon || $0 == ASCII.semicolon || $0 == ASCII.question || $0 == ASCII.exclamation })
    }

    /// Where each half-width mark used as Chinese punctuation is.
    static func marks(in characters: [Character]) -> [Int] {
        var result: [Int] = []
        for (index, character) in characters.enumerated() where ",.:;?!".contains(character) {
            guard index > 0, TextScan.isCJK(characters[index - 1]) else { continue }
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if let next, next.isNumber || next.isLetter && next.isASCII { continue }
            if character == "." && index + 2 < characters.count && characters[index + 1] == "." { continue }  // "..." has its own check
            // An emoticon (:) ;-)) is no punctuation.
            if ":;".contains(character), let next, ")(-".contains(next) { continue }
            // A mark quoted or bracketed to name it (缺少「;」, 逗号（,）) is not punctuation.
            if "「“‘『（(【[".contains(characters[index - 1]), let next, "」”’』）)】]".contains(next) { continue }
            result.append(index)
        }
        return result
    }
}
