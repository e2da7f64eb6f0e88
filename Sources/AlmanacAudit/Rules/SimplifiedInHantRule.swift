/// Simplified characters in a Traditional Chinese value (zh-Hant, zh_TW, zh_HK): decided per
/// character by ICU's transforms with Taiwan's variants (`台` is Taiwan's own).
struct SimplifiedInHantRule: TextRule {
    static let description = AuditRuleDescription(
        id: "simplified-in-hant", severity: .error, scope: .text, locales: .traditional,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "设置")),
                     .values(("settings", "en", "Settings"), ("settings", "zh_HK", "设定"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("region", "en", "Taiwan"), ("region", "zh-Hant", "台灣")),
                        .values(("settings", "en", "Settings"), ("settings", "zh-Hans", "设置"))])

    func check(_ text: TextContext) {
        let characters = text.simplifiedCharacters
        if !characters.isEmpty { text.report(Self.description, [characters], value: text.text) }
    }
}
