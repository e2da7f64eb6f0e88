/// A key some locales have and the base does not: left over from a renamed or deleted string in
/// the one locale that has it, or, where several locales have it, the base's own gap (a key the
/// code builds at run time from a pattern, `level.%@.name`, translated but never given a base text), named once
/// with every locale that has it. A key every other locale has while the base lacks it is the
/// source text instead (`source-text-keys`). An Interface Builder key whose object the base's
/// storyboard or xib has is not extra: the base's text is in that file, which its `.strings` need not
/// repeat.
struct ExtraKeyRule: KeyRule {
    static let description = AuditRuleDescription(
        id: "extra-key", severity: .warning, scope: .key, locales: .translations,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save.old", "zh-Hans", "存储"), ("save", "zh-Hant", "儲存")),
                     .values(("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save", "zh-Hant", "儲存"), ("save", "ja", "保存"),
                             ("level.gold.name", "zh-Hans", "黄金"), ("level.gold.name", "zh-Hant", "黃金"))],
        nonTriggering: [.values(("Move Screen", "zh-Hans", "移动屏幕"), ("Move Screen", "zh-Hant", "移動螢幕"), alsoFinds: ["source-text-keys"]),
                        .files(("Base.lproj/Main.storyboard", MissingKeyRule.storyboard),
                               ("en.lproj/Main.strings", "\"q1z-5B-Z46.text\" = \"Other\";\n"),
                               ("en.lproj/Localizable.strings", "\"save\" = \"Save\";\n"),
                               ("zh-Hant.lproj/Main.strings", "\"q1z-5B-Z46.text\" = \"其他\";\n\"H6e-u6-POe.text\" = \"標記\";\n"),
                               ("zh-Hant.lproj/Localizable.strings", "\"save\" = \"儲存\";\n"))])

    func check(_ key: KeyContext) {
        // An Interface Builder key whose object the base's storyboard has: the base's text is there.
        guard key.base == nil, key.objectIsInInterface != true else { return }
        let having = key.locales.filter { $0 != key.baseLocale && key.entry.translations[$0] != nil }
        if having.count > 1 {
            key.report(Self.description, locale: having[0], naming: having.joined(separator: ", "), [key.baseLocale])
            return
        }
        for locale in having { key.report(Self.description, locale: locale, [key.baseLocale]) }
    }
}
