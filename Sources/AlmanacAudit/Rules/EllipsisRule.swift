/// Three periods where the ellipsis character `…` belongs (Apple's style, and one glyph that
/// does not break across lines).
struct EllipsisRule: TextRule {
    static let description = AuditRuleDescription(
        id: "ellipsis", severity: .warning, scope: .text, locales: .every,
        triggering: [.values(("loading", "en", "Loading..."))],
        nonTriggering: [.values(("loading", "en", "Loading…")), .values(("version", "en", "Version 1.2.3"))])

    func check(_ text: TextContext) {
        if TextScan.has(text.text, "...") { text.report(Self.description, value: text.text) }
    }
}
