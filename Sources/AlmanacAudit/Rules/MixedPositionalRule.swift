/// Numbered (`%1$@`) and plain (`%@`) placeholders in one text: `String(format:)` cannot read
/// them together.
struct MixedPositionalRule: TextRule {
    static let description = AuditRuleDescription(
        id: "mixed-positional", severity: .error, scope: .text, locales: .every,
        triggering: [.values(("shared", "en", "%1$@ shared %@"))],
        nonTriggering: [.values(("shared", "en", "%1$@ shared %2$@")), .values(("shared", "en", "%@ shared %@"))])

    func check(_ text: TextContext) {
        if text.placeholders.mixesPositional, text.isPrintfFormat { text.report(Self.description, value: text.text) }
    }
}
