import AlmanacCore

/// A value with no text: the app shows nothing. The value's other checks are skipped. A translation
/// is not reported where the base's text is empty too (the base's finding covers it), nor the base's
/// empty text of a key that names a group of others (a menu's empty first choice, `menu.type.`), nor
/// an Interface Builder object's text that every translation (two or more) leaves empty, as the
/// base does or not: the app fills it at run time or means it empty (a label whose design-time
/// `180` every locale blanks, a placeholder `next check on 2020.01.01` each translator emptied).
/// Another key empty everywhere (a plist editor's leftover `New item`) is still reported.
struct EmptyValueRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "empty-value", severity: .warning, scope: .value, locales: .every,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", "")),
                     .values(("New item", "en", ""), ("New item", "zh-Hans", ""), ("New item", "zh-Hant", ""))],
        nonTriggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", "儲存")),
                        .values(("menu.type.", "en", ""), ("menu.type.visa", "en", "Visa"), ("menu.type.visa", "zh-Hant", "Visa 卡")),
                        .values(("m2L-Mj-bkU.text", "en", ""), ("m2L-Mj-bkU.text", "zh-Hans", ""), ("m2L-Mj-bkU.text", "zh-Hant", "")),
                        .values(("819.placeholderString", "en", "next check on 2020.01.01"), ("819.placeholderString", "de", ""),
                                ("819.placeholderString", "zh-Hant", ""))])

    static var checksEmptyValues: Bool { true }

    func check(_ value: ValueContext) {
        // A String Catalog localization of another kind (an App Shortcut's phrases) has text the
        // catalog model does not hold.
        guard value.translation.presentation[XCStringsFile.UnmodeledMembers.self] == nil else { return }
        // A translation as empty as the base's text (a plist editor's leftover `New item`): the
        // base's finding says what to fix.
        if value.locale != value.key.baseLocale, let base = value.key.base, base.texts.allSatisfy({ $0.text.isEmpty }) { return }
        // A menu's empty first choice, keyed by its group (`menu.type.` = "" before `menu.type.visa`):
        // the base means it empty.
        if value.isBase, value.key.isGroupKey { return }
        // An interface object's text that every translation leaves empty: blanked on purpose.
        if value.key.isInterfaceBuilder {
            let translations = value.key.entry.translations.filter { $0.key != value.key.baseLocale }.values
            if translations.count >= 2, translations.allSatisfy({ $0.texts.allSatisfy { $0.text.isEmpty } }) { return }
        }
        value.report(Self.description)
    }
}
