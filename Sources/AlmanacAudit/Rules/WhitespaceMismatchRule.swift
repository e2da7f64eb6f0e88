import AlmanacCore

/// Leading or trailing spaces that differ from the base's: text the app joins with other text
/// runs together or gains a gap.
struct WhitespaceMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "whitespace-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱："))],
        nonTriggering: [.values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱： "))])

    func check(_ text: TextContext) {
        guard let reference = text.reference else { return }
        if Self.edgeSpace(reference) != Self.edgeSpace(text.text) {
            text.report(Self.description, value: text.text, base: reference)
        }
    }

    static func edgeSpace(_ text: String) -> (Bool, Bool) {
        // By bytes: a space or tab is one byte in UTF-8, and grapheme breaking is not needed.
        (text.utf8.first.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false, text.utf8.last.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false)
    }
}
