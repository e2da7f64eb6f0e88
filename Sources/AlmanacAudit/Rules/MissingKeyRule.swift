/// A key of the base locale that a locale lacks: the app shows the base's text (or the key). A base
/// text that reads as a name only (`UTM`, `iCloud`, `%@`, a unit's symbol `%lld bpm`, `1400 bps`, a log line's
/// `enabled=%@`: what `untranslated` lets through) would read the same translated, so its absence is
/// not reported, nor is a copyright line's or a
/// marker's (`<< do not localize >>`), nor is an Interface Builder object's design-time text
/// (Lorem ipsum, `Size Label`), which the app replaces, nor a Chinese key a locale reads as its
/// own text (the app shows the key), nor a source-text key whose every translation is the key itself
/// (bashbash's zh_TW `"Ghana" = "Ghana"`: a locale without it shows the key, the same text), nor an
/// Interface Builder key whose object the base's storyboard or xib no longer has (iDiaries'
/// `en.lproj/Main.strings` keeps such entries: nothing shows them), nor any
/// key in a locale that localizes the table's interface file itself (`zh_CN.lproj/MainMenu.xib`:
/// `localized-interface` says so once).
struct MissingKeyRule: KeyRule {
    static let description = AuditRuleDescription(
        id: "missing-key", severity: .error, scope: .key, locales: .translations,
        triggering: [.values(("save", "en", "Save"), ("cancel", "en", "Cancel"), ("save", "zh-Hant", "儲存")),
                     .files(("zh-Hans.lproj/Localizable.strings", "\"下至上\" = \"下至上\";\n"),
                            ("zh-Hant.lproj/Localizable.strings", "\"下至上\" = \"下至上\";\n\"遊戲\" = \"遊戲\";\n"),
                            alsoFinds: ["source-text-keys"])],
        nonTriggering: [.values(("save", "en", "Save"), ("cancel", "en", "Cancel"), ("save", "zh-Hant", "儲存"), ("cancel", "zh-Hant", "取消")),
                        .values(("save", "en", "Save"), ("brand", "en", "UTM"), ("save", "zh-Hant", "儲存")),
                        .values(("save", "en", "Save"), ("rate", "en", "%lld bpm"), ("log", "en", "enabled=%@ | cloud=%@"), ("save", "zh-Hant", "儲存")),
                        .values(("save", "en", "Save"), ("codec", "en", "1400 bps"), ("save", "zh-Hant", "儲存")),
                        .files(("en.lproj/MainMenu.strings", "\"57.title\" = \"Quit\";\n"), ("zh-Hant.lproj/MainMenu.xib", "<document/>\n"),
                               ("zh-Hant.lproj/Localizable.strings", "\"a\" = \"一\";\n"), ("en.lproj/Localizable.strings", "\"a\" = \"One\";\n"),
                               alsoFinds: ["localized-interface"]),
                        .values(("save", "en", "Save"), ("sample", "en", "Lorem ipsum dolor sit amet"), ("save", "zh-Hant", "儲存")),
                        .files(("Base.lproj/Main.storyboard", Self.storyboard),
                               ("en.lproj/Main.strings", "\"H6e-u6-POe.text\" = \"Mark\";\n\"EAU-Cj-F7W.normalTitle\" = \"Email us\";\n"),
                               ("zh-Hant.lproj/Main.strings", "\"H6e-u6-POe.text\" = \"標記\";\n")),
                        .values(("save", "en", "Save"), ("il1-Gs-nr3.text", "en", "Size Label"), ("save", "zh-Hant", "儲存")),
                        .values(("详情", "en", "Details"), ("save", "en", "Save"), ("save", "zh-Hans", "保存"), ("save", "zh-Hant", "儲存"),
                                ("详情", "zh-Hant", "詳情")),
                        .files(("zh-Hans.lproj/Localizable.strings", "\"下至上\" = \"下至上\";\n\"遊戲\" = \"游戏\";\n"),
                               ("zh-Hant.lproj/Localizable.strings", "\"下至上\" = \"下至上\";\n\"Ghana\" = \"Ghana\";\n"),
                               alsoFinds: ["source-text-keys", "untranslated-term"])])

    /// A storyboard with one object, `H6e-u6-POe`.
    static let storyboard = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB\" version=\"3.0\">\n"
        + "    <scenes><scene sceneID=\"a1B-c2-D3e\"><objects><label id=\"H6e-u6-POe\" text=\"Mark\"/></objects></scene></scenes>\n</document>\n"

    func check(_ key: KeyContext) {
        // An Interface Builder key whose object the base's storyboard no longer has is dead in the base.
        guard key.base != nil, !key.isDesignTimeText, key.objectIsInInterface != false else { return }
        // A locale that localizes the table's interface file itself has the text there.
        let missing = key.locales.filter { $0 != key.baseLocale && key.entry.translations[$0] == nil && !key.interfaceLocales.contains($0) }
        // A source-text key with no Chinese in it that every translation renders as the key (a
        // country's name kept in English): a locale without it shows the same. A Chinese key is
        // right only where its script is the locale's (`keyReadsRight`).
        if key.keyIsSourceText, !key.entry.key.unicodeScalars.contains(where: { ScriptPurity.isHan($0.value) }),
           key.entry.translations.allSatisfy({ locale, translation in
               locale == key.baseLocale || translation.texts.allSatisfy { $0.text == key.entry.key }
           }) { return }
        guard !missing.isEmpty, key.baseTexts.contains(where: { base in
            UntranslatedRule.words(in: base.text) > 0 && !UntranslatedRule.isSameInEveryLanguage(base.text) && !UntranslatedRule.readsAsUnits(base.text)
        }) else { return }
        for locale in missing where !Self.keyReadsRight(key.entry.key, in: key.auditor.locale(locale)) {
            key.report(Self.description, locale: locale)
        }
    }

    /// Whether a Chinese key is text this locale reads as its own (FunnyFm's keys are its zh-Hans
    /// text: 详情, 已同步): a locale without the key shows the key, which is right there. 暂停 is not
    /// zh-Hant's (暫停), 通知 is both scripts'.
    static func keyReadsRight(_ key: String, in locale: AuditLocale) -> Bool {
        guard locale.isChinese, key.unicodeScalars.contains(where: { ScriptPurity.isHan($0.value) }) else { return false }
        return locale.isTraditional ? ScriptPurity.simplifiedCharacters(in: key).isEmpty : ScriptPurity.traditionalCharacters(in: key).isEmpty
    }
}
