/// One argument read as two types (`%1$@` and `%1$d`): it crashes or prints garbage.
struct PlaceholderConflictRule: TextRule {
    static let description = AuditRuleDescription(
        id: "placeholder-conflict", severity: .error, scope: .text, locales: .every,
        triggering: [.values(("count", "en", "%1$@ has %1$d days"))],
        nonTriggering: [.values(("count", "en", "%1$@ has %2$d days")), .values(("count", "en", "%1$d of %1$d days"))])

    func check(_ text: TextContext) {
        for position in text.placeholders.conflicts where text.isPrintfFormat { text.report(Self.description, [String(position)], value: text.text) }
    }
}
