/// A key some locales have and the base does not: left over from a renamed or deleted string.
/// A key every other locale has while the base lacks it is the source text instead
/// (`source-text-keys`).
struct ExtraKeyRule: KeyRule {
    static let description = AuditRuleDescription(
        id: "extra-key", severity: .warning, scope: .key, locales: .translations,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save.old", "zh-Hans", "存储"), ("save", "zh-Hant", "儲存"))],
        nonTriggering: [.values(("Move Screen", "zh-Hans", "移动屏幕"), ("Move Screen", "zh-Hant", "移動螢幕"), alsoFinds: ["source-text-keys"])])

    func check(_ key: KeyContext) {
        guard key.base == nil else { return }
        for locale in key.locales where key.entry.translations[locale] != nil {
            key.report(Self.description, locale: locale, [key.baseLocale])
        }
    }
}
