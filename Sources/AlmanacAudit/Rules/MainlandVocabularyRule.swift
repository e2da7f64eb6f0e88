/// Mainland words in Taiwan Chinese (`網絡` for Taiwan's `網路`), from OpenCC's Taiwan phrase
/// list. Hong Kong and Macau write Traditional characters with words of their own, so this is for
/// Taiwan only; a value with Simplified characters is reported for those first.
struct MainlandVocabularyRule: TextRule {
    static let description = AuditRuleDescription(
        id: "mainland-vocabulary", severity: .warning, scope: .text, locales: .taiwan,
        triggering: [.values(("offline", "en", "Network error"), ("offline", "zh-Hant", "網絡錯誤")),
                     .values(("offline", "en", "Network error"), ("offline", "zh_TW", "網絡錯誤"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("offline", "en", "Network error"), ("offline", "zh-Hant", "網路錯誤")),
                        .values(("offline", "en", "Network error"), ("offline", "zh-Hant-HK", "網絡錯誤"))])

    func check(_ text: TextContext) {
        guard text.simplifiedCharacters.isEmpty else { return }
        for (word, taiwan) in text.auditor.vocabulary.find(in: text.text) {
            text.report(Self.description, [word, taiwan], value: text.text)
        }
    }
}
