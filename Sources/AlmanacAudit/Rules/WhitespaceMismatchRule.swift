import AlmanacCore

/// Leading or trailing spaces that differ from the base's: text the app joins with other text
/// runs together or gains a gap. Chinese text that ends (or starts) with a Chinese character or
/// full-width punctuation where the base has a space needs none (`Name: ` → `名稱：`, `, ` → `、`).
struct WhitespaceMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "whitespace-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("label", "en", "Name: %@"), ("label", "zh-Hant", "名稱：%@ ")),
                     .values(("label", "en", "Version "), ("label", "zh-Hant", "Version"))],
        nonTriggering: [.values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱： ")),
                        .values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱：")),
                        .values(("join", "en", ", "), ("join", "zh-Hans", "、"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference else { return }
        let base = Self.edgeSpace(reference), translated = Self.edgeSpace(text.text)
        guard base != translated else { return }
        let characters = Array(text.text)
        // The base's space is one Chinese text needs no space for.
        func needsNone(_ edge: Character?) -> Bool { edge.map(TextScan.isCJK) ?? false }
        let leading = base.0 != translated.0 && !(base.0 && needsNone(characters.first))
        let trailing = base.1 != translated.1 && !(base.1 && needsNone(characters.last))
        if leading || trailing {
            text.report(Self.description, value: text.text, base: reference)
        }
    }

    static func edgeSpace(_ text: String) -> (Bool, Bool) {
        // By bytes: a space or tab is one byte in UTF-8, and grapheme breaking is not needed.
        (text.utf8.first.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false, text.utf8.last.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false)
    }
}
