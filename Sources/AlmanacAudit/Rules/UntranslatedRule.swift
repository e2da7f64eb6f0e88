import AlmanacCore

/// A translation that is the base's text, word for word, in another language. Values without
/// letters (`%@`, `—`), another variety of the base's language (en-GB for en) and Chinese
/// compared with Chinese are not reported; `--allow TEXT` lets brand names and the like through.
struct UntranslatedRule: TextRule {
    static let description = AuditRuleDescription(
        id: "untranslated", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "Settings"))],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("color", "en", "Color"), ("color", "en-GB", "Color")),
                        .values(("ok", "zh-Hans", "好的"), ("ok", "zh-Hant", "好的"), base: "zh-Hans"),
                        .values(("size", "en", "%@ × %@"), ("size", "zh-Hans", "%@ × %@"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference, reference == text.text else { return }
        let traits = text.traits, baseTraits = text.auditor.locale(text.value.key.baseLocale)
        guard !(baseTraits.isChinese && traits.isChinese), traits.languageForComparison != baseTraits.languageForComparison,
              Self.hasLetters(text.text), !text.auditor.options.allowUntranslated.contains(text.text) else { return }
        text.report(Self.description, value: text.text, base: reference)
    }

    static func hasLetters(_ text: String) -> Bool {
        let stripped = PlaceholderList(text).placeholders.reduce(text) { $0.replacingOccurrences(of: $1.text, with: "") }
        return stripped.unicodeScalars.contains { $0.properties.isAlphabetic }
    }
}
