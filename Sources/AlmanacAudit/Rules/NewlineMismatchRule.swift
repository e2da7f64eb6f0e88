import AlmanacCore

/// A translation with more or fewer line breaks than the base: a layout made for two lines gets
/// one or three.
struct NewlineMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "newline-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("intro", "en", "Count the days.\nNever miss one."), ("intro", "zh-Hans", "倒数每一天，不错过任何一天。"))],
        nonTriggering: [.values(("intro", "en", "Count the days.\nNever miss one."), ("intro", "zh-Hans", "倒数每一天。\n不错过任何一天。"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference else { return }
        if reference.utf8.filter({ $0 == ASCII.lineFeed }).count != text.text.utf8.filter({ $0 == ASCII.lineFeed }).count {
            text.report(Self.description, value: text.text, base: reference)
        }
    }
}
