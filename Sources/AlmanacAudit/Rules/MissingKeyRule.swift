/// A key of the base locale that a locale lacks: the app shows the base's text (or the key).
struct MissingKeyRule: KeyRule {
    static let description = AuditRuleDescription(
        id: "missing-key", severity: .error, scope: .key, locales: .translations,
        triggering: [.values(("save", "en", "Save"), ("cancel", "en", "Cancel"), ("save", "zh-Hant", "儲存"))],
        nonTriggering: [.values(("save", "en", "Save"), ("cancel", "en", "Cancel"), ("save", "zh-Hant", "儲存"), ("cancel", "zh-Hant", "取消"))])

    func check(_ key: KeyContext) {
        guard key.base != nil else { return }
        for locale in key.locales where locale != key.baseLocale && key.entry.translations[locale] == nil {
            key.report(Self.description, locale: locale)
        }
    }
}
