/// Quotation marks of the other script's convention: Traditional Chinese quotes with 「」,
/// Simplified Chinese with “”.
struct QuoteStyleRule: TextRule {
    static let description = AuditRuleDescription(
        id: "quote-style", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按“儲存”")),
                     .values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hans", "请点按「保存」"))],
        nonTriggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按「儲存」"), ("hint", "zh-Hans", "请点按“保存”"))])

    func check(_ text: TextContext) {
        let value = text.text
        if text.traits.isTraditional {
            if TextScan.has(value, "“") || TextScan.has(value, "”") || TextScan.has(value, "‘") || TextScan.has(value, "’") {
                text.report(Self.description, ["「」"], value: value)
            }
        } else if TextScan.has(value, "「") || TextScan.has(value, "」") {
            text.report(Self.description, ["“”"], value: value)
        }
    }
}
