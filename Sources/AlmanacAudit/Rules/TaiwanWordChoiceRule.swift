/// A word Taiwan writes differently in some of its meanings (支持 for backing a project, 支援 for a
/// feature's support): a note for a person to decide, found by the mainland-vocabulary check.
struct TaiwanWordChoiceRule: TextRule {
    static let description = AuditRuleDescription(
        id: "taiwan-word-choice", severity: .note, scope: .text, locales: .taiwan,
        triggering: [.values(("support", "en", "No automatic updates."), ("support", "zh-Hant", "不支持自動更新。"))],
        nonTriggering: [.values(("support", "en", "No automatic updates."), ("support", "zh-Hant", "不支援自動更新。"))])

    func check(_ text: TextContext) {
        guard text.simplifiedCharacters.isEmpty, !text.isJapanese else { return }
        for found in text.mainlandVocabulary where found.contextual {
            text.report(Self.description, [found.word, found.taiwan], value: text.text)
        }
    }
}
