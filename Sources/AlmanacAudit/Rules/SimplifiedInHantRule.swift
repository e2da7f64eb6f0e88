/// Simplified characters in a Traditional Chinese value (zh-Hant, zh_TW, zh_HK): decided per
/// character by ICU's transforms, with the forms Taiwan's standard writes (台, 占, 污) and the
/// words in which a character ICU would change is Traditional (干擾, 征服, 宿舍) let through.
struct SimplifiedInHantRule: TextRule {
    static let description = AuditRuleDescription(
        id: "simplified-in-hant", severity: .error, scope: .text, locales: .traditional,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "设置")),
                     .values(("clean", "en", "Clean up"), ("clean", "zh-Hant", "清理干淨")),
                     .values(("settings", "en", "Settings"), ("settings", "zh_HK", "设定"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("region", "en", "Taiwan"), ("region", "zh-Hant", "台灣")),
                        .values(("load", "en", "System load"), ("load", "zh-Hant", "系統占用")),
                        .values(("noise", "en", "Reduce interference"), ("noise", "zh-Hant", "減少干擾")),
                        .values(("settings", "en", "Settings"), ("settings", "zh-Hans", "设置"))])

    func check(_ text: TextContext) {
        let characters = text.simplifiedCharacters
        if !characters.isEmpty { text.report(Self.description, [characters], value: text.text) }
    }
}
