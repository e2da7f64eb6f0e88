import AlmanacCatalogs

/// Quotation marks of the other script's convention: Traditional Chinese quotes with 「」,
/// Simplified Chinese with “”. An apostrophe (’ between letters) is no quotation mark.
struct QuoteStyleRule: TextRule {
    static let description = AuditRuleDescription(
        id: "quote-style", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按“儲存”")),
                     .values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hans", "请点按「保存」"))],
        nonTriggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按「儲存」"), ("hint", "zh-Hans", "请点按“保存”")),
                        .values(("cask", "en", "Couldn’t find the cask"), ("cask", "zh-Hant", "找不到 Cork’s 的 cask"))])

    func check(_ text: TextContext) {
        let value = text.text
        if text.traits.isTraditional {
            guard TextScan.has(value, "“") || TextScan.has(value, "”") || TextScan.has(value, "‘") || TextScan.has(value, "’") else { return }
            if Self.hasWesternQuote(in: value) { text.report(Self.description, ["「」"], value: value) }
        } else if TextScan.has(value, "「") || TextScan.has(value, "」") {
            text.report(Self.description, ["“”"], value: value)
        }
    }

    /// Whether `value` has a Western quotation mark in Chinese text: not a value without Chinese
    /// (English left untranslated is for the untranslated check), and not ’ between two letters,
    /// which is an apostrophe (Couldn’t, Cork’s).
    static func hasWesternQuote(in value: String) -> Bool {
        let characters = Array(value)
        guard characters.contains(where: TextScan.isCJK) else { return false }
        return characters.indices.contains { "“”‘’".contains(characters[$0]) && !ChineseConverter.isApostrophe(characters, at: $0) }
    }
}
