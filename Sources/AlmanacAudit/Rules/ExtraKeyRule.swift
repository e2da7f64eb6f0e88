/// A key some locales have and the base does not: left over from a renamed or deleted string in
/// the one locale that has it, or, where several locales have it, the base's own gap (a key the
/// code builds at run time from a pattern, `level.%@.name`, translated but never given a base text), named once
/// with every locale that has it. A key every other locale has while the base lacks it is the
/// source text instead (`source-text-keys`).
struct ExtraKeyRule: KeyRule {
    static let description = AuditRuleDescription(
        id: "extra-key", severity: .warning, scope: .key, locales: .translations,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save.old", "zh-Hans", "存储"), ("save", "zh-Hant", "儲存")),
                     .values(("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save", "zh-Hant", "儲存"), ("save", "ja", "保存"),
                             ("level.gold.name", "zh-Hans", "黄金"), ("level.gold.name", "zh-Hant", "黃金"))],
        nonTriggering: [.values(("Move Screen", "zh-Hans", "移动屏幕"), ("Move Screen", "zh-Hant", "移動螢幕"), alsoFinds: ["source-text-keys"])])

    func check(_ key: KeyContext) {
        guard key.base == nil else { return }
        let having = key.locales.filter { $0 != key.baseLocale && key.entry.translations[$0] != nil }
        if having.count > 1 {
            key.report(Self.description, locale: having[0], naming: having.joined(separator: ", "), [key.baseLocale])
            return
        }
        for locale in having { key.report(Self.description, locale: locale, [key.baseLocale]) }
    }
}
