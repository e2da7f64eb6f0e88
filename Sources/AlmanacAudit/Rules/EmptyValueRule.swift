import AlmanacCore

/// A value with no text: the app shows nothing. The value's other checks are skipped. A translation
/// is not reported where the base's text is empty too (the base's finding covers it), nor the base's
/// empty text of a key that names a group of others (a menu's empty first choice, `menu.type.`).
struct EmptyValueRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "empty-value", severity: .warning, scope: .value, locales: .every,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", ""))],
        nonTriggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", "儲存")),
                        .values(("menu.type.", "en", ""), ("menu.type.visa", "en", "Visa"), ("menu.type.visa", "zh-Hant", "Visa 卡"))])

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
        value.report(Self.description)
    }
}
