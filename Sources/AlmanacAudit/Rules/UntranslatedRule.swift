import AlmanacCore

/// A translation that is the base's text, word for word, in another language. Not reported:
/// values that read as names rather than text (acronyms such as CPU, names such as MonitorControl
/// or iCloud, @handles, addresses, values without letters), another variety of the base's
/// language (en-GB for en), Chinese compared with Chinese, and a single word in a language
/// written in the base's script (German keeps "Status" and "Hardware"). `--allow TEXT` lets
/// others through.
struct UntranslatedRule: TextRule {
    static let description = AuditRuleDescription(
        id: "untranslated", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "Settings")),
                     .values(("update", "en", "Check for updates"), ("update", "de", "Check for updates"))],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("color", "en", "Color"), ("color", "en-GB", "Color")),
                        .values(("ok", "zh-Hans", "好的"), ("ok", "zh-Hant", "好的"), base: "zh-Hans"),
                        .values(("size", "en", "%@ × %@"), ("size", "zh-Hans", "%@ × %@")),
                        .values(("cpu", "en", "CPU"), ("cpu", "zh-Hans", "CPU"), ("app", "en", "MonitorControl"), ("app", "zh-Hans", "MonitorControl"),
                                ("sync", "en", "iCloud"), ("sync", "zh-Hans", "iCloud")),
                        .values(("status", "en", "Status"), ("status", "de", "Status"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference, reference == text.text else { return }
        let traits = text.traits, baseTraits = text.auditor.locale(text.value.key.baseLocale)
        guard !(baseTraits.isChinese && traits.isChinese), traits.languageForComparison != baseTraits.languageForComparison,
              !text.auditor.options.allowUntranslated.contains(text.text) else { return }
        let words = Self.words(in: text.text)
        // A language written in the base's script keeps many single words as they are.
        if words >= (traits.script != nil && traits.script == baseTraits.script ? 2 : 1) {
            text.report(Self.description, value: text.text, base: reference)
        }
    }

    /// The words of the text that read as words to translate, not as names: printf placeholders,
    /// acronyms (CPU), names with a capital inside (MonitorControl, iCloud, macOS), @handles,
    /// addresses and tokens with digits are not counted.
    static func words(in text: String) -> Int {
        var stripped = text
        for placeholder in PlaceholderList(text).placeholders.reversed() {
            stripped = stripped.replacingOccurrences(of: placeholder.text, with: " ")
        }
        var count = 0
        for token in stripped.split(whereSeparator: { $0.isWhitespace }) {
            let core = token.drop { !$0.isLetter && !$0.isNumber && $0 != "@" }.reversed().drop { !$0.isLetter && !$0.isNumber }.reversed()
            let letters = core.filter(\.isLetter)
            guard letters.count >= 2, !core.contains("@"), !core.contains(where: \.isNumber),
                  !core.contains("."), !core.contains("/") else { continue }
            // An acronym, or a name with a capital after its first letter.
            if letters.allSatisfy(\.isUppercase) || letters.dropFirst().contains(where: \.isUppercase) { continue }
            count += 1
        }
        return count
    }
}
