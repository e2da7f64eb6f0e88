/// Placeholders the app substitutes itself (`%0`, `{name}`, `${name}`) must be the same in every
/// locale, as printf's are: a translation that drops `{name}` shows no name.
struct AppTokenMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "app-token-mismatch", severity: .error, scope: .text, locales: .translations,
        triggering: [.values(("welcome", "en", "Welcome, {name}!"), ("welcome", "zh-Hant", "歡迎！")),
                     .values(("move", "en", "Move %0 to %1"), ("move", "zh-Hans", "把 %0 移到 %1"), ("move", "zh-Hant", "把 %0 移到"))],
        nonTriggering: [.values(("welcome", "en", "Welcome, {name}!"), ("welcome", "zh-Hant", "{name}，歡迎！")),
                        .values(("toggle", "en", "Turn ${toggle} on"), ("toggle", "zh-Hans", "打开${toggle}"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference, text.isSubstituted else { return }
        let expected = text.expectedTokens
        let found = text.appTokens.tokens.filter { !$0.hasPrefix("%") || expected.contains($0) }
        guard found.sorted() != expected.sorted() else { return }
        text.report(Self.description, [Self.listed(expected), Self.listed(found)], value: text.text, base: reference)
    }

    static func listed(_ tokens: [String]) -> String { tokens.isEmpty ? "—" : tokens.joined(separator: " ") }
}
