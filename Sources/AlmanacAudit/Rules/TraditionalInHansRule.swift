import AlmanacCatalogs
import AlmanacICU

/// Traditional characters in a Simplified Chinese value (zh-Hans, zh_CN, zh_SG): characters OpenCC
/// never writes in Simplified text (著 in 显著 and 乾 in 乾坤 are Simplified too). A folder named the
/// old way is read by its script first: `zh_TW.lproj` is Traditional, not checked here. A value
/// written as the base's (a language list's 繁體中文 and 日本語 in every locale) is a name.
struct TraditionalInHansRule: TextRule {
    static let description = AuditRuleDescription(
        id: "traditional-in-hans", severity: .error, scope: .text, locales: .simplified,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hans", "設置")),
                     .values(("settings", "en", "Settings"), ("settings", "zh_CN", "設置"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hans", "设置")),
                        .values(("moved", "en", "Significant location change"), ("moved", "zh-Hans", "显著的位置变更")),
                        .values(("language.ja", "en", "日本語"), ("language.ja", "zh-Hans", "日本語")),
                        .values(("language.zh-Hant", "en", "Traditional Chinese"), ("language.zh-Hant", "zh-Hans", "繁體中文")),
                        .values(("settings", "en", "Settings"), ("settings", "zh_TW", "設定"))])

    func check(_ text: TextContext) {
        guard !text.isTheBaseName, !text.isJapanese else { return }
        let characters = ScriptPurity.traditionalCharacters(in: text.text)
        if !characters.isEmpty { text.report(Self.description, [characters], value: text.text) }
    }
}

extension TraditionalInHansRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        guard !JapaneseInChineseRule.holdsKana(text), let simplifier = fixes.simplifierNow() else { return nil }
        // All or nothing: a character with several Simplified forms (畫: 画 or 划) is a person's to
        // decide, and converting the others around it would leave a word half converted (開发者).
        let scalars = Array(text.unicodeScalars)
        let positions = ScriptPurity.traditionalPositions(in: scalars)
        guard !positions.contains(where: { ChineseConverter.hasSeveralSimplifiedForms(scalars[$0]) }) else { return nil }
        // A character the check lets through because Simplified text writes it too (於, a surname)
        // that the conversion of the whole text changes (關於 → 关于) is part of a word with the
        // flagged ones: converting only those would leave 关於.
        let whole = Array(simplifier.apply(text).unicodeScalars)
        if whole.count == scalars.count {
            let flagged = Set(positions)
            if scalars.indices.contains(where: { !flagged.contains($0) && whole[$0] != scalars[$0] && ScriptPurity.isHan(scalars[$0].value) }) { return nil }
        }
        return TextFixes.replacing({ _ in positions }, of: text) { simplifier.apply($0) }
    }
}
