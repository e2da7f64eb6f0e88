/// Mainland words in Taiwan Chinese (`網絡` for Taiwan's `網路`), from OpenCC's Taiwan phrase
/// list and Almanac's, reviewed on public apps' catalogs (`Scripts/opencc/TaiwanReview.txt`). Hong
/// Kong and Macau write Traditional characters with words of their own, so this is for Taiwan only;
/// a value with Simplified characters is reported for those first.
struct MainlandVocabularyRule: TextRule {
    static let description = AuditRuleDescription(
        id: "mainland-vocabulary", severity: .warning, scope: .text, locales: .taiwan,
        triggering: [.values(("offline", "en", "Network error"), ("offline", "zh-Hant", "網絡錯誤")),
                     .values(("offline", "en", "Network error"), ("offline", "zh_TW", "網絡錯誤"), alsoFinds: ["locale-name"])],
        nonTriggering: [.values(("offline", "en", "Network error"), ("offline", "zh-Hant", "網路錯誤")),
                        .values(("offline", "en", "Network error"), ("offline", "zh-Hant-HK", "網絡錯誤")),
                        .values(("band", "en", "TV band"), ("band", "zh-Hant", "電視頻段")),
                        .values(("fonts", "en", "Show Fonts"), ("fonts", "zh-Hant", "顯示字體"))])

    func check(_ text: TextContext) {
        guard text.simplifiedCharacters.isEmpty, !text.isJapanese else { return }
        for found in text.mainlandVocabulary where !found.contextual {
            text.report(Self.description, [found.word, found.taiwan], value: text.text)
        }
    }
}

extension MainlandVocabularyRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        // Only the words whose Taiwan word is right in every meaning; the others stay findings.
        fixes.vocabulary.replacing(TextFixes.certainTaiwanWords, in: text)
    }
}
