/// Three periods, or three spaced ones (`. . .`), where the ellipsis character `…` belongs (Apple's
/// style, and one glyph that does not break across lines). Not in a value that is only periods (`...`, a mark the app joins to
/// a text it cuts short, as the code writes it), nor in a translation that is the base's text left as
/// it is: the base's own finding names it once, and `untranslated` the rest.
struct EllipsisRule: TextRule {
    static let description = AuditRuleDescription(
        id: "ellipsis", severity: .warning, scope: .text, locales: .every,
        triggering: [.values(("loading", "en", "Loading...")),
                     .values(("loading", "en", "Loading..."), ("loading", "zh-Hans", "正在载入...")),
                     .values(("logs", "en", "Loading Logs. . .")),
                     .values(("logs", "en", "Loading Logs…"), ("logs", "zh-Hans", "加载日志. . ."))],
        nonTriggering: [.values(("loading", "en", "Loading…")), .values(("version", "en", "Version 1.2.3")),
                        .values(("truncated", "en", "..."), ("truncated", "zh-Hant", "...")),
                        .values(("loading", "en", "Loading…"), ("loading", "zh-Hant", "Loading..."), alsoFinds: ["untranslated"])])

    func check(_ text: TextContext) {
        guard TextScan.has(text.text, "...") || TextScan.has(text.text, Self.spaced) else { return }
        if text.text.allSatisfy({ $0 == "." || $0.isWhitespace }) { return }
        if !text.isBase, let reference = text.reference,
           reference == text.text || text.traits.isChinese && Self.isUntranslated(text.text, base: reference) { return }
        text.report(Self.description, value: text.text)
    }

    /// An ellipsis written as three periods with a space between each.
    static let spaced: StaticString = ". . ."

    /// A Chinese translation with Latin letters and no Chinese, of a base without Chinese: English
    /// left in the translation, which `untranslated` reports.
    static func isUntranslated(_ text: String, base: String) -> Bool {
        !text.contains(where: TextScan.isCJK) && text.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic })
            && !base.contains(where: TextScan.isCJK)
    }
}

extension EllipsisRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        TextFixes.ellipsis(text)
    }
}
