import AlmanacCatalogs

/// Simplified characters in a Traditional Chinese value (zh-Hant, zh_TW, zh_HK): characters OpenCC
/// never writes in Traditional text, and characters both scripts write (里, 干, 后) where the word
/// they stand in is written otherwise (這里, 乾淨's 干淨, 以后, 手表; never 千里, 若干, 皇后, and not
/// 表 in a meter, 碼表 or 轉速表, which Taiwan writes either way). The forms
/// Taiwan's standard writes (台, 占, 污) are let through, and so is a value written as the base's
/// (a language list's 简体中文 in every locale).
struct SimplifiedInHantRule: TextRule {
    static let description = AuditRuleDescription(
        id: "simplified-in-hant", severity: .error, scope: .text, locales: .traditional,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "设置")),
                     .values(("clean", "en", "Clean up"), ("clean", "zh-Hant", "清理干淨")),
                     .values(("here", "en", "Drop files here"), ("here", "zh-Hant", "把檔案拖到這里")),
                     .values(("watch", "en", "Unlock with Apple Watch"), ("watch", "zh-Hant", "使用 Apple 手表解鎖")),
                     .values(("settings", "en", "Settings"), ("settings", "zh_HK", "设定"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("region", "en", "Taiwan"), ("region", "zh-Hant", "台灣")),
                        .values(("load", "en", "System load"), ("load", "zh-Hant", "系統占用")),
                        .values(("gauge", "en", "Bike computer and tachometer"), ("gauge", "zh-Hant", "碼表與轉速表")),
                        .values(("noise", "en", "Reduce interference"), ("noise", "zh-Hant", "減少干擾")),
                        .values(("journey", "en", "A journey begins with a loop."), ("journey", "zh-Hant", "千里之行，始於環繞。")),
                        .values(("language.zh-Hans", "en", "简体中文"), ("language.zh-Hans", "zh-Hant", "简体中文")),
                        .values(("language.zh-Hans", "en", "Simplified Chinese"), ("language.zh-Hans", "zh-Hant", "简体中文")),
                        .values(("settings", "en", "Settings"), ("settings", "zh-Hans", "设置"))])

    func check(_ text: TextContext) {
        guard !text.isTheBaseName else { return }
        let characters = text.simplifiedCharacters
        if !characters.isEmpty { text.report(Self.description, [characters], value: text.text) }
    }
}

extension SimplifiedInHantRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        // Each Simplified character as its Taiwan form, where the phrase around it decides one; a
        // text with kana is a person's to decide.
        guard !JapaneseInChineseRule.holdsKana(text) else { return nil }
        return ChineseConverter.taiwanCharacters(at: ScriptPurity.simplifiedPositions(in: Array(text.unicodeScalars)), in: text)
    }
}
